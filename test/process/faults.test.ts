import { once } from 'node:events';
import { createServer, Socket, type Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openEmbedded } from '../../src/db/embedded.js';
import { useOtherApps, useTestApp } from '../support/app.js';
import { testMode } from '../support/database.js';
import { buildTeam } from '../support/factories.js';
import { reservablePort } from '../support/ports.js';
import { cliJson, databaseEnv, startServer } from '../support/processes.js';
import { budgetFor, SERVER_START_MS } from '../support/budgets.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);
const onPostgres = testMode() === 'postgres';

/** How long a fault or a recovery may take to show through /health or a query. */
const EVENTUALLY_MS = 20_000;

/** Polls until `check` holds, at most `timeoutMs`; returns whether it did. */
async function eventually(check: () => Promise<boolean>, timeoutMs = EVENTUALLY_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
}

/** A TCP relay to the real PostgreSQL that a test can cut and restore: "PostgreSQL" going away, for one client only. */
class PostgresRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(readonly port: number) {}

  async up(target: URL): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (!this.server) return;
    const closed = once(this.server, 'close');
    this.server.close();
    await closed;
    this.server = undefined;
  }
}

describe.skipIf(!onPostgres)('PostgreSQL faults (PostgreSQL only)', () => {
  it('When the backend serving a request is terminated, then that request is a 503 and the next one succeeds', async () => {
    const t = await buildTeam(ctx.db);
    const created = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'locked' });
    const locker = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM suggestions WHERE id = $1 FOR UPDATE', [created.body.id]);
      const lockerPid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const pending = ctx
        .request()
        .patch(`/api/v1/suggestions/${created.body.id}`)
        .set('X-API-Key', t.write)
        .send({ status: 'completed' });
      const response = pending.then((r) => r);
      let blocked: number | undefined;
      expect(
        await eventually(async () => {
          const { rows } = await locker.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [lockerPid],
          );
          blocked = rows[0]?.pid;
          return blocked !== undefined;
        }, 10_000),
      ).toBe(true);
      await locker.query('SELECT pg_terminate_backend($1)', [blocked]);
      const res = await response;
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    const next = await ctx
      .request()
      .patch(`/api/v1/suggestions/${created.body.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'completed' });
    expect(next.status).toBe(200);
    expect(next.body.status).toBe('completed');
  });
});

/** A server start, then three waits for /health to change. */
const RELAY_TEST_MS = budgetFor({ serverStarts: 1 }) + 3 * EVENTUALLY_MS;

describe.skipIf(!onPostgres)('PostgreSQL going away (PostgreSQL only)', { timeout: RELAY_TEST_MS }, () => {
  it('When PostgreSQL is down at start, then the server answers 503 and connects once it is up; the same when it goes away later', async () => {
    const relay = new PostgresRelay(await reservablePort());
    const real = new URL(process.env.TEST_DATABASE_URL!);
    const viaRelay = new URL(real);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    // Only listening is awaited: /health stays 503 until the relay is up.
    const server = await startServer({ DATABASE_URL: viaRelay.toString(), DATA_DIR: '' }, SERVER_START_MS, {
      waitHealthy: false,
    });
    const health = () =>
      fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status);
    try {
      expect(await health()).toBe(503);
      await relay.up(real);
      expect(await eventually(async () => (await health()) === 200)).toBe(true);
      await relay.down();
      expect(await eventually(async () => (await health()) === 503)).toBe(true);
      await relay.up(real);
      expect(await eventually(async () => (await health()) === 200)).toBe(true);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop('SIGKILL');
      await relay.down();
    }
  });
});

/** A server start, two CLI commands, then opening the DATA_DIR the server left (no initdb: it exists). */
const BURST_TEST_MS = budgetFor({ serverStarts: 1, cliRuns: 2 });

describe('SIGTERM during a burst of writes', { timeout: BURST_TEST_MS }, () => {
  it('When the server is stopped mid-burst, then every acknowledged write is stored whole and it exits 0 within 10 s', async () => {
    const env: Record<string, string> = { ...databaseEnv(), RATE_LIMIT_PER_MINUTE: '100000' };
    const server = await startServer(env);
    // Stopped however the test ends: a failing step below must not leave the server running.
    onTestFinished(async () => {
      await server.stop('SIGKILL');
    });
    const business = await cliJson(['business', 'create', '--name', 'Burst'], env);
    const { key } = await cliJson<{ key: string }>(
      ['key', 'create', '--business', business.id as string, '--name', 'k', '--scope', 'write'],
      env,
    );
    const post = (i: number) =>
      fetch(`${server.baseUrl}/api/v1/suggestions`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: `burst ${i}` }),
      }).then(
        async (r) => ({ status: r.status, id: r.status === 201 ? ((await r.json()) as { id: string }).id : undefined }),
        () => ({ status: 0, id: undefined }),
      );
    const requests = Array.from({ length: 60 }, (_, i) => sleep(i * 5).then(() => post(i)));
    await sleep(120);
    const stopped = Date.now();
    const exit = server.stop('SIGTERM');
    const results = await Promise.all(requests);
    expect(await exit).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(10_000);

    const acknowledged = results.filter((r) => r.status === 201).map((r) => r.id!);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 201 || r.status === 0 || r.status === 503)).toBe(true);

    const db = onPostgres
      ? { pool: new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL }), close: () => Promise.resolve() }
      : await openEmbedded({ dataDir: env.DATA_DIR!, onPoolError: () => undefined });
    try {
      const { rows } = await db.pool.query<{ id: string; activities: number }>(
        `SELECT s.id, (SELECT count(*)::int FROM activity a WHERE a.entity_id = s.id) AS activities
         FROM suggestions s WHERE s.business_id = $1`,
        [business.id],
      );
      const stored = new Map(rows.map((r) => [r.id, r.activities]));
      for (const id of acknowledged) expect(stored.get(id), id).toBe(1);
      for (const activities of stored.values()) expect(activities).toBe(1);
    } finally {
      if (onPostgres) await db.pool.end();
      await db.close();
    }
  });
});

describe('several instances', () => {
  it('When a key is revoked through one instance, then another instance rejects it on its very next request', async () => {
    const a = otherApp();
    const b = otherApp();
    const t = await buildTeam(ctx.db);
    expect((await b.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
    const revoked = await a
      .request()
      .delete(`/businesses/${t.business.id}/api-keys/${t.readKey.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`);
    expect(revoked.status).toBe(200);
    expect((await b.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(401);
  });
});
