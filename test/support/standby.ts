import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { reservablePort } from './ports.js';

/**
 * A hot standby of the test PostgreSQL, for the read-replica tests and the bench: `pg_basebackup -R`
 * into a temporary directory, its own postgresql.conf and pg_hba.conf (Debian keeps a cluster's outside
 * its data directory, so the copy has none), another port, `pg_ctl start` as the `postgres` user (the
 * server refuses to run as root). Where that cannot be done, `startStandby` answers why instead.
 */

const run = promisify(execFile);

/** Starting one: a base backup of a small test cluster and a start, on a loaded 2-core machine. */
export const STANDBY_START_MS = 120_000;

export interface Standby {
  readonly port: number;
  /** The primary's URL with the standby's port: same database, same user. */
  readonly url: string;
  /** Stops the server (fast shutdown, or immediate when `crash`); `start` brings it back on the same port. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Runs one statement on the standby (pg_wal_replay_pause() and the like). */
  query(sql: string): Promise<pg.QueryResult>;
  /** Stops it and deletes its directory. */
  remove(): Promise<void>;
}

interface Tools {
  bin: string;
  asPostgres: (command: string, args: string[]) => Promise<{ stdout: string }>;
}

/** The server's own binaries for the primary's major version, and a way to run them as `postgres`. */
async function findTools(primary: pg.Client): Promise<Tools | string> {
  const { rows } = await primary.query<{ version: string }>(`SELECT current_setting('server_version_num') AS version`);
  const major = Math.floor(Number(rows[0]!.version) / 10_000);
  const bin = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(bin, 'pg_ctl')) || !existsSync(join(bin, 'pg_basebackup'))) {
    return `no PostgreSQL ${major} binaries in ${bin}`;
  }
  const me = userInfo().username;
  if (me === 'postgres') return { bin, asPostgres: (command, args) => run(command, args, { timeout: 60_000 }) };
  if (process.getuid?.() !== 0) return `running as ${me}: the standby must run as postgres, which needs root`;
  return {
    bin,
    asPostgres: (command, args) => run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 60_000 }),
  };
}

/** What a hot standby must match on the primary, or it refuses to start. */
const MATCHED = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
];

function standbyConf(port: number, dir: string, matched: Record<string, string>): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'hot_standby = on',
    // Long reads (an export) are not cancelled by the primary's vacuum.
    'hot_standby_feedback = on',
    'wal_receiver_status_interval = 1s',
    'shared_buffers = 16MB',
    'fsync = off',
    'logging_collector = off',
    ...Object.entries(matched).map(([name, value]) => `${name} = ${value}`),
    '',
  ].join('\n');
}

/** Starts a standby of `primaryUrl`, or answers why it cannot (no binaries, no permission, refused). */
export async function startStandby(primaryUrl: string): Promise<Standby | string> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  let dir: string | undefined;
  try {
    const tools = await findTools(primary);
    if (typeof tools === 'string') return tools;
    const { rows } = await primary.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name = ANY($1)`,
      [[...MATCHED, 'wal_level']],
    );
    const settings = Object.fromEntries(rows.map((row) => [row.name, row.setting]));
    if (settings.wal_level === 'minimal') return 'the primary runs wal_level = minimal: it cannot feed a standby';
    delete settings.wal_level;

    const source = new URL(primaryUrl);
    const port = await reservablePort();
    dir = mkdtempSync(join(tmpdir(), 'fbk-standby-'));
    if (process.getuid?.() === 0) chownSync(dir, postgresUid(), postgresGid());
    const data = join(dir, 'data');
    try {
      await tools.asPostgres(join(tools.bin, 'pg_basebackup'), [
        ...['-h', source.hostname, '-p', source.port || '5432', '-U', source.username || 'postgres'],
        ...['-D', data, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
      ]);
    } catch (err) {
      const message = (err as { stderr?: string }).stderr?.trim() ?? String(err);
      return `pg_basebackup was refused (the primary's pg_hba.conf needs "host replication all 127.0.0.1/32 trust" and a reload; .ci/run adds it): ${message}`;
    }
    const files = {
      'postgresql.conf': standbyConf(port, dir, settings),
      'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
      'pg_ident.conf': '',
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(data, name), text);
      if (process.getuid?.() === 0) chownSync(join(data, name), postgresUid(), postgresGid());
    }

    const url = new URL(primaryUrl);
    url.port = String(port);
    const standby = makeStandby(tools, dir, data, port, url.toString());
    dir = undefined;
    try {
      await standby.start();
    } catch (err) {
      // Started but never a standby: stopped before its directory goes.
      await standby.remove();
      throw err;
    }
    return standby;
  } finally {
    await primary.end();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function makeStandby(tools: Tools, dir: string, data: string, port: number, url: string): Standby {
  const pgCtl = join(tools.bin, 'pg_ctl');
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await tools.asPostgres(pgCtl, ['-D', data, '-m', mode, '-w', 'stop']).catch(() => undefined);
  };
  return {
    port,
    url,
    stop,
    query,
    async start() {
      await tools.asPostgres(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
      // Accepting connections is not yet answering reads: a hot standby does once it is consistent.
      for (let attempt = 0; attempt < 100; attempt++) {
        const ready = await query('SELECT pg_is_in_recovery() AS recovering').then(
          (result) => (result.rows[0] as { recovering: boolean }).recovering,
          () => false,
        );
        if (ready) return;
        await sleep(200);
      }
      throw new Error(`the standby on port ${port} never answered as a standby`);
    },
    async remove() {
      await stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const postgresUid = () => Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
const postgresGid = () => Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
