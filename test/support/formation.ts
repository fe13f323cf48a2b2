import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { reservablePort } from './ports.js';

/**
 * A pg_auto_failover formation on loopback for the failover test: a monitor and two nodes in one
 * temporary directory (pg_autoctl's own state too, through XDG_CONFIG_HOME and XDG_DATA_HOME), each
 * `pg_autoctl run` in the background as the `postgres` user, `--auth trust --no-ssl`. Where that
 * cannot be done, `startFormation` answers why instead.
 */

const run = promisify(execFile);

/** Creating the monitor and two nodes (a base backup) and waiting for primary + secondary. */
export const FORMATION_START_MS = 420_000;

export interface NodeState {
  readonly name: string;
  readonly port: number;
  readonly reported: string;
  readonly assigned: string;
}

/** One line of the monitor's event log: a node's reported and assigned state at a moment. */
export interface FormationEvent {
  readonly at: number; // ms since epoch
  readonly port: number;
  readonly reported: string;
  readonly assigned: string;
  readonly description: string;
}

export interface Formation {
  /** `pg_autoctl show uri --formation default`, with the user and sslmode the test needs. */
  readonly uri: string;
  /** What the monitor says of each node. */
  state(): Promise<NodeState[]>;
  /** `pg_autoctl perform failover`: returns when the monitor has a new primary. */
  failover(): Promise<void>;
  /** The monitor's last events (`pg_autoctl show events --json`), oldest first. */
  events(): Promise<FormationEvent[]>;
  /** Kills every process it started and deletes its directory. */
  remove(): Promise<void>;
}

interface Tools {
  bin: string;
  asPostgres: (args: string[], timeout?: number) => Promise<{ stdout: string }>;
  spawnAsPostgres: (args: string[]) => ChildProcess;
}

/** PostgreSQL's binaries for the major version pg_auto_failover is packaged for, and a way to run as postgres. */
function findTools(dir: string): Tools | string {
  if (!existsSync('/usr/bin/pg_autoctl')) return 'pg_autoctl is missing (apt-get install postgresql-15-auto-failover)';
  const major = readdirSync('/usr/share/postgresql', { withFileTypes: true })
    .map((entry) => entry.name)
    .find((name) => existsSync(`/usr/share/postgresql/${name}/extension/pgautofailover.control`));
  if (!major) return 'the pgautofailover extension is not installed for any PostgreSQL version';
  const bin = `/usr/lib/postgresql/${major}/bin`;
  const env = [
    `XDG_CONFIG_HOME=${join(dir, 'config')}`,
    `XDG_DATA_HOME=${join(dir, 'share')}`,
    `PATH=${bin}:/usr/bin:/bin`,
  ];
  const me = userInfo().username;
  let prefix: string[];
  if (me === 'postgres') prefix = ['env', ...env];
  else if (process.getuid?.() === 0) prefix = ['runuser', '-u', 'postgres', '--', 'env', ...env];
  else return `running as ${me}: the formation must run as postgres, which needs root`;
  const [command, ...rest] = prefix as [string, ...string[]];
  return {
    bin,
    asPostgres: (args, timeout = 120_000) =>
      run(command, [...rest, 'pg_autoctl', ...args], { timeout, cwd: dir, maxBuffer: 16 * 1024 * 1024 }),
    spawnAsPostgres: (args) =>
      spawn(command, [...rest, 'pg_autoctl', ...args], { cwd: dir, detached: true, stdio: 'ignore' }),
  };
}

export async function startFormation(database: string): Promise<Formation | string> {
  const dir = mkdtempSync(join(tmpdir(), 'fbk-formation-'));
  const tools = findTools(dir);
  if (typeof tools === 'string') {
    rmSync(dir, { recursive: true, force: true });
    return tools;
  }
  if (process.getuid?.() === 0) chownSync(dir, uidOf('-u'), uidOf('-g'));
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  const monitorData = join(dir, 'monitor');
  const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', join(tools.bin, 'pg_ctl')];
  const formation: Formation = {
    uri: '',
    async state() {
      const { stdout } = await tools.asPostgres(['show', 'state', '--pgdata', monitorData, '--json'], 30_000);
      const nodes = JSON.parse(stdout) as {
        nodename: string;
        nodeport: number;
        current_group_state: string;
        assigned_group_state: string;
      }[];
      return nodes.map((node) => ({
        name: node.nodename,
        port: node.nodeport,
        reported: node.current_group_state,
        assigned: node.assigned_group_state,
      }));
    },
    async failover() {
      await tools.asPostgres(['perform', 'failover', '--pgdata', monitorData], 180_000);
    },
    async events() {
      const { stdout } = await tools.asPostgres(
        ['show', 'events', '--count', '200', '--json', '--pgdata', monitorData],
        30_000,
      );
      const events = JSON.parse(stdout) as {
        eventtime: string;
        nodeport: number;
        reportedstate: string;
        goalstate: string;
        description: string;
      }[];
      return events
        .map((event) => ({
          at: Date.parse(event.eventtime),
          port: event.nodeport,
          reported: event.reportedstate,
          assigned: event.goalstate,
          description: event.description,
        }))
        .sort((a, b) => a.at - b.at);
    },
    async remove() {
      for (const child of children) {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      // pg_autoctl stops its PostgreSQL on SIGTERM; whatever is left is stopped at once.
      await sleep(2_000);
      for (const data of dataDirs) {
        const pgCtl = [join(tools.bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'];
        const [command, ...args] = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...pgCtl] : pgCtl;
        await run(command!, args, { timeout: 30_000 }).catch(() => undefined);
      }
      for (const child of children) {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const startRun = (data: string) => {
    const child = tools.spawnAsPostgres(['run', '--pgdata', data]);
    child.unref();
    children.push(child);
  };
  try {
    const monitorPort = await reservablePort();
    dataDirs.push(monitorData);
    await tools.asPostgres(['create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common]);
    startRun(monitorData);
    const monitor = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    for (const name of ['node1', 'node2']) {
      const data = join(dir, name);
      const port = await reservablePort();
      dataDirs.push(data);
      await tools.asPostgres(
        [
          'create',
          'postgres',
          '--pgdata',
          data,
          '--pgport',
          String(port),
          '--dbname',
          database,
          '--monitor',
          monitor,
          ...common,
        ],
        180_000,
      );
      startRun(data);
    }
    let ready = false;
    for (let attempt = 0; attempt < 240 && !ready; attempt++) {
      const nodes = await formation.state().catch(() => []);
      const states = nodes.map((node) => `${node.reported}/${node.assigned}`).sort();
      ready = states.join() === 'primary/primary,secondary/secondary';
      if (!ready) await sleep(1_000);
    }
    if (!ready) throw new Error('the formation never showed a primary and a secondary');
    const { stdout } = await tools.asPostgres(
      ['show', 'uri', '--formation', 'default', '--pgdata', monitorData],
      30_000,
    );
    // The printed URI names no user (pg_autoctl's own is the OS user) and says sslmode=prefer, which
    // node-postgres reads as "require": the formation runs --no-ssl.
    const uri = stdout
      .trim()
      .replace('postgres://', 'postgres://postgres@')
      .replace('sslmode=prefer', 'sslmode=disable');
    return { ...formation, uri };
  } catch (err) {
    await formation.remove();
    throw err;
  }
}

const uidOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
