/**
 * What one create and one vote cost the database (issue 41), measured on the service's own write path
 * (suggestion.service createSuggestion, vote.service castVote) from this process, with no HTTP:
 *
 * - WAL bytes: pg_current_wal_insert_lsn() read before and after each write of a sequential pass.
 *   With pg_walinspect (ownWalBytes) the figure is exact: the pass's records of this database's own
 *   transactions, full-page images apart, per write. Without it, the cluster's WAL position is shared
 *   with whatever else writes to it, so the figure is the median of the single writes' deltas
 *   (another writer inflates a few of them, never all). The pass's mean of the position's moves is
 *   beside it (it also carries other writers and the full-page images after a checkpoint).
 * - PostgreSQL CPU: the time the pass's one backend ran, from /proc/<pid>/schedstat (the server is
 *   on this machine), divided by the writes; Node CPU: this process's (process.cpuUsage).
 * - Statements: the executor runs of one write, the statement's own and every one inside it (trigger
 *   functions' queries, foreign-key checks), counted as auto_explain's notices with nested statements
 *   on (LOADed into that one session: the cluster is not restarted).
 * - Concurrency: 50 connections creating in one business against the same spread over 50 businesses,
 *   in alternating rounds; the median of the rounds' throughput ratios.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { createApiKey } from '../../src/api-keys/api-key.service.js';
import { digestKey } from '../../src/auth/key-format.js';
import type { ApiKeyPrincipal } from '../../src/auth/principal.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { createPool, preparingClient } from '../../src/db/database.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createSuggestion } from '../../src/suggestions/suggestion.service.js';
import { castVote } from '../../src/votes/vote.service.js';
import { withClient } from './database.js';
import { findKeyPrincipal } from './writes.js';

export interface WriteWork {
  create_wal_bytes: number;
  create_wal_mean_bytes: number;
  vote_wal_bytes: number;
  vote_wal_mean_bytes: number;
  create_pg_cpu_ms: number;
  vote_pg_cpu_ms: number;
  create_node_cpu_ms: number;
  vote_node_cpu_ms: number;
  create_statements: number;
  vote_statements: number;
  create_one_business_rps: number;
  create_spread_rps: number;
  create_one_business_vs_spread_throughput_ratio: number;
}

const CONNECTIONS = 50;
const CONTENT = 'Great coffee and friendly staff, but the queue at the counter is slow on weekend mornings';

/** One create on the service's write path, as the bench's measured rounds make them. */
export const create = (pool: pg.Pool, principal: ApiKeyPrincipal, i = 0) =>
  createSuggestion(pool, principal, {
    content: `${CONTENT} (${i})`,
    status: 'pending',
    priority: 'high',
    visibility: 'internal',
    customer_name: undefined,
    customer_email: undefined,
    location_id: undefined,
    tags: [],
  });

/**
 * CPU ms of a process so far, from /proc/<pid>/schedstat (Linux): the scheduler's own count of the
 * time it ran, in ns. utime and stime in /proc/<pid>/stat are sampled on 10 ms ticks, which over a
 * pass of a few hundred writes moved the figure by a fifth from one run to the next.
 */
function processCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ', 1)[0]) / 1e6;
}

const nodeCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function tenant(pool: pg.Pool, name: string): Promise<ApiKeyPrincipal> {
  const { business } = await createBusiness(pool, { name, plan: 'business' });
  const { key } = await createApiKey(pool, business.id, { name: 'bench', scope: 'write' }, { maxActive: 100 });
  return (await findKeyPrincipal(pool, digestKey(key)))!;
}

/** An LSN ('16/B374D848') as a byte position. */
const lsnBytes = (lsn: string) => {
  const [high, low] = lsn.split('/') as [string, string];
  return Number.parseInt(high, 16) * 2 ** 32 + Number.parseInt(low, 16);
};

/**
 * The WAL of this database's own transactions between two positions, per pg_walinspect (PostgreSQL
 * 15, created here when the user may): every record of a transaction that touched a block of this
 * database (its commit record included), full-page images left out, so neither other databases'
 * writers on the shared cluster nor the checkpoint's timing move it. Null without the extension.
 */
async function ownWalBytes(pool: pg.Pool, from: number, to: number): Promise<number | null> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  } catch {
    return null;
  }
  const lsn = (bytes: number) => `${Math.floor(bytes / 2 ** 32).toString(16)}/${(bytes % 2 ** 32).toString(16)}`;
  // pg_walinspect reads only flushed WAL ("cannot accept future end LSN"): the insert position read
  // after the last write may be ahead of the flush until the WAL writer's next round (at most 10 s)
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await pool.query<{ flushed: boolean }>(
      'SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS flushed',
      [lsn(to)],
    );
    if (rows[0]!.flushed) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rows } = await pool.query<{ bytes: string | null }>(
    /* sql */ `
    WITH r AS (
      SELECT xid, record_length - fpi_length AS bytes, block_ref
      FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
    ),
    ours AS (
      SELECT DISTINCT xid
      FROM r
      WHERE xid <> '0'
        AND block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'
    )
    SELECT sum(bytes) AS bytes FROM r WHERE xid IN (SELECT xid FROM ours)`,
    [lsn(from), lsn(to)],
  );
  return rows[0]?.bytes == null ? null : Number(rows[0].bytes);
}

/**
 * Two sequential passes of `count` writes on one connection (the pool has one): first the CPU of both
 * sides with nothing else run on the backend, then WAL per write with the position read around each.
 */
async function sequentialPass(pool: pg.Pool, count: number, write: (i: number) => Promise<unknown>) {
  const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const lsn = async () =>
    lsnBytes((await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn);
  for (let i = 0; i < 20; i++) await write(-i - 1); // plans cached, pages warm
  const pgBefore = processCpuMs(pid);
  const nodeBefore = nodeCpuMs();
  for (let i = 0; i < count; i++) await write(i);
  const nodeCpu = nodeCpuMs() - nodeBefore;
  const pgCpu = processCpuMs(pid) - pgBefore;
  const deltas: number[] = [];
  const first = await lsn();
  let before = first;
  for (let i = 0; i < count; i++) {
    await write(count + i);
    const after = await lsn();
    deltas.push(after - before);
    before = after;
  }
  const own = await ownWalBytes(pool, first, before);
  const exact = own === null ? null : Math.round(own / count);
  return {
    walBytes: exact ?? median(deltas),
    walMeanBytes: Math.round((before - first) / count),
    pgCpuMs: pgCpu / count,
    nodeCpuMs: nodeCpu / count,
  };
}

/**
 * How many statements the executor ran for one write: auto_explain's notices, nested statements on,
 * on a connection of its own that loads it at its start (session_preload_libraries, a superuser's
 * setting: the cluster is not restarted).
 */
async function statementsOf(databaseUrl: string, write: (pool: pg.Pool) => Promise<unknown>): Promise<number> {
  const settings = {
    session_preload_libraries: 'auto_explain',
    'auto_explain.log_min_duration': '0',
    'auto_explain.log_nested_statements': 'on',
    'auto_explain.log_level': 'notice',
  };
  const options = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const pool = createPool({ connectionString: databaseUrl, max: 1, options }, () => undefined, {
    Client: preparingClient(),
  });
  let notices = 0;
  pool.on('connect', (client) =>
    client.on('notice', (notice) => {
      if (notice.message?.startsWith('duration:')) notices++;
    }),
  );
  try {
    await write(pool); // planned and cached, as on a connection in use
    notices = 0;
    await write(pool);
    return notices;
  } finally {
    await pool.end();
  }
}

/** Throughput of `workers` callers each creating in a loop for `seconds` in the business `principalOf(i)`. */
async function createLoad(pool: pg.Pool, seconds: number, principalOf: (worker: number) => ApiKeyPrincipal) {
  let done = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      while (performance.now() < until) {
        await create(pool, principalOf(worker), done);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export async function measureWriteWork(
  databaseUrl: string,
  options: { sequential: number; seconds: number; rounds: number },
): Promise<WriteWork> {
  const setup = openPostgres(databaseUrl, () => undefined, 4).pool;
  const one = openPostgres(databaseUrl, () => undefined, 1).pool;
  const many = openPostgres(databaseUrl, () => undefined, CONNECTIONS).pool;
  try {
    const writer = await tenant(setup, 'Write work');
    const spread = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => tenant(setup, `Spread ${i}`)));
    const voted = await create(setup, writer);

    const creates = await sequentialPass(one, options.sequential, (i) => create(one, writer, i));
    const votes = await sequentialPass(one, options.sequential, (i) =>
      castVote(one, writer, voted.id, { type: 'external_id', externalId: `write-work-${i}` }),
    );
    const createStatements = await statementsOf(databaseUrl, (pool) => create(pool, writer));
    let counted = 0;
    const voteStatements = await statementsOf(databaseUrl, (pool) =>
      castVote(pool, writer, voted.id, { type: 'external_id', externalId: `write-work-counted-${counted++}` }),
    );

    await createLoad(many, 1, (w) => spread[w]!); // connections open, plans cached
    const ratios: number[] = [];
    const oneRps: number[] = [];
    const spreadRps: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const a = await createLoad(many, options.seconds, () => writer);
      const b = await createLoad(many, options.seconds, (w) => spread[w]!);
      oneRps.push(a);
      spreadRps.push(b);
      ratios.push(a / b);
    }
    const round2 = (n: number) => Math.round(n * 100) / 100;
    return {
      create_wal_bytes: creates.walBytes,
      create_wal_mean_bytes: creates.walMeanBytes,
      vote_wal_bytes: votes.walBytes,
      vote_wal_mean_bytes: votes.walMeanBytes,
      create_pg_cpu_ms: round2(creates.pgCpuMs),
      vote_pg_cpu_ms: round2(votes.pgCpuMs),
      create_node_cpu_ms: round2(creates.nodeCpuMs),
      vote_node_cpu_ms: round2(votes.nodeCpuMs),
      create_statements: createStatements,
      vote_statements: voteStatements,
      create_one_business_rps: Math.round(median(oneRps)),
      create_spread_rps: Math.round(median(spreadRps)),
      create_one_business_vs_spread_throughput_ratio: round2(median(ratios)),
    };
  } finally {
    await Promise.all([setup.end(), one.end(), many.end()]);
  }
}

/**
 * Issue 41's own migrations: the schema the write-work figures are compared with is every other
 * migration (main's schema when the issue was taken up on 2026-11-28, `0045_changelog`, and what other
 * issues added since, which today's service code needs), so the comparison keeps running as the schema grows.
 */
export const WRITE_WORK_MIGRATIONS = [
  '0050',
  '0051',
  '0052',
  '0064',
  '0065',
  '0066',
  '0067',
  '0070',
  '0071',
  '0073',
  '0074',
  '0075',
  '0076',
  '0077',
  '0078',
  '0079',
  '0080',
];

/**
 * The old schema made to work with today's code. Today's code marks a row's activity by its entity and
 * stores `activity_type` only when it differs from the event's type (0077 changed the code and the two
 * activity indexes together); the old schema's activity indexes (0069) take the rows whose
 * `activity_type` is set, so on it a create's or a vote's activity would be in neither: less work than
 * the old write path did, and an activity history that misses them. They are given the new mark,
 * their keys and order as they were.
 */
export const OLD_SCHEMA_FOR_TODAYS_CODE = /* sql */ `
  DROP INDEX events_activity_idx;
  CREATE INDEX events_activity_idx ON events (business_id, created_at DESC, seq DESC) WHERE entity_id IS NOT NULL;
  DROP INDEX events_entity_idx;
  CREATE INDEX events_entity_idx ON events (business_id, entity_type, entity_id, created_at, seq)
    WHERE entity_id IS NOT NULL;`;

const medianOfKey = (runs: WriteWork[], key: keyof WriteWork) => median(runs.map((run) => run[key]));

/**
 * The write-work figures of the schema in `databaseUrl` beside those of the schema before issue 41's
 * changes, in a database of its own on the same server (`<name>_before`, migrated up to
 * every migration but WRITE_WORK_MIGRATIONS, its activity indexes as OLD_SCHEMA_FOR_TODAYS_CODE says, and
 * dropped at the end), in alternating rounds: both sides see the same machine.
 * The service's code is today's on both: the old write path is the old schema's triggers and indexes.
 * Each figure is the median of the rounds; `*_vs_before_ratio` the median of the rounds' ratios.
 */
export async function compareWriteWork(
  databaseUrl: string,
  options: { sequential: number; seconds: number; rounds: number; compareRounds: number },
  log: (message: string) => void = () => undefined,
): Promise<Record<string, number>> {
  const before = new URL(databaseUrl);
  before.pathname = `${before.pathname}_before`;
  const name = before.pathname.slice(1);
  await withClient(databaseUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  });
  try {
    const old = openPostgres(before.toString(), () => undefined, 1).pool;
    await migrate(
      old,
      readMigrations().filter((m) => !WRITE_WORK_MIGRATIONS.includes(m.version.slice(0, 4))),
    );
    await old.query(OLD_SCHEMA_FOR_TODAYS_CODE);
    await old.end();
    const now: WriteWork[] = [];
    const then: WriteWork[] = [];
    for (let round = 0; round < options.compareRounds; round++) {
      now.push(await measureWriteWork(databaseUrl, options));
      then.push(await measureWriteWork(before.toString(), options));
      log(`  write work round ${round + 1}: ${JSON.stringify({ now: now.at(-1), before: then.at(-1) })}`);
    }
    const figures: Record<string, number> = {};
    for (const key of Object.keys(now[0]!) as (keyof WriteWork)[]) {
      figures[key] = medianOfKey(now, key);
      figures[`before_${key}`] = medianOfKey(then, key);
    }
    const ratio = (key: keyof WriteWork) =>
      Math.round(median(now.map((run, i) => run[key] / then[i]![key])) * 100) / 100;
    const indexes = (url: string) =>
      withClient(url, async (client) =>
        Number(
          (await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_indexes WHERE tablename = 'suggestions'"))
            .rows[0]!.n,
        ),
      );
    figures.suggestions_indexes = await indexes(databaseUrl);
    figures.before_suggestions_indexes = await indexes(before.toString());
    figures.create_pg_cpu_vs_before_ratio = ratio('create_pg_cpu_ms');
    figures.vote_pg_cpu_vs_before_ratio = ratio('vote_pg_cpu_ms');
    figures.create_wal_vs_before_ratio = ratio('create_wal_bytes');
    figures.vote_wal_vs_before_ratio = ratio('vote_wal_bytes');
    return figures;
  } finally {
    await withClient(databaseUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
