import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger } from '../support/app.js';
import { openTestDatabase, testDatabaseUrl, testMode } from '../support/database.js';
import { buildTenant } from '../support/factories.js';
import { reservablePort } from '../support/ports.js';
import { startStandby, STANDBY_START_MS, type Standby } from '../support/standby.js';

/**
 * A DATABASE_URL naming several hosts (as pg_auto_failover prints it), on a real hot standby of the
 * test PostgreSQL, a closed port and the primary: the pool finds the primary past the other two, and
 * with only the standby every request is a 503 with Retry-After. The embedded run has no standby.
 */
async function standbyOrReason(): Promise<Standby | string> {
  if (testMode() !== 'postgres') {
    return process.env.TEST_DATABASE_URL ? '' : 'they need PostgreSQL (TEST_DATABASE_URL) and its binaries';
  }
  return startStandby(testDatabaseUrl());
}

const started = await standbyOrReason();
const standby = typeof started === 'string' ? undefined : started;
if (typeof started === 'string' && started) console.warn(`host-list tests skipped: ${started}`);

/** `postgres://user@h1:p1,h2:p2/db?target_session_attrs=read-write` over the test database's. */
function hostListUrl(ports: number[]): string {
  const url = new URL(testDatabaseUrl());
  const hosts = ports.map((port) => `127.0.0.1:${port}`).join(',');
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  return `postgres://${auth}${hosts}${url.pathname}?target_session_attrs=read-write`;
}

describe.skipIf(!standby)('A DATABASE_URL naming several hosts (a standby, a closed port, the primary)', () => {
  const { logger } = capturingLogger();
  const rateLimiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
  let db: Database;
  let listed: Database;
  let standbyOnly: Database;
  let primaryPort: number;

  beforeAll(async () => {
    db = await openTestDatabase();
    primaryPort = Number(new URL(testDatabaseUrl()).port || 5432);
    const closed = await reservablePort();
    listed = openPostgres(hostListUrl([standby!.port, closed, primaryPort]), () => undefined, 3);
    standbyOnly = openPostgres(hostListUrl([standby!.port]), () => undefined, 3, { connectTimeoutMs: 2_000 });
  }, STANDBY_START_MS);

  afterAll(async () => {
    await listed?.close();
    await standbyOnly?.close();
    await db?.close();
    await standby?.remove();
  }, STANDBY_START_MS);

  it('When the list starts with a standby and a closed port, then writes land on the primary and /health names it', async () => {
    const t = await buildTenant(db);
    const app = createApp({ db: listed, logger, rateLimiters });
    const created = [];
    for (const content of ['First idea from the list', 'Second idea from the list']) {
      const res = await supertest(app).post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content });
      expect(res.status).toBe(201);
      created.push((res.body as { id: string }).id);
    }
    const { rows } = await db.pool.query<{ id: string }>(
      'SELECT id FROM suggestions WHERE business_id = $1 ORDER BY id',
      [t.business.id],
    );
    expect(rows.map((row) => row.id)).toEqual([...created].sort());

    const health = await supertest(app).get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', primary: `127.0.0.1:${primaryPort}` });
  });

  it('When no host of the list is a primary, then a write is a 503 with Retry-After in the error shape, and /health is 503', async () => {
    const t = await buildTenant(db);
    const app = createApp({ db: standbyOnly, logger, rateLimiters });
    const write = await supertest(app)
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Nowhere to write this' });
    expect(write.status).toBe(503);
    expect(write.headers['retry-after']).toBe('1');
    expect(write.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });

    const health = await supertest(app).get('/health');
    expect(health.status).toBe(503);
    expect(health.headers['retry-after']).toBe('1');
    expect(health.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
  });

  it("When a pooled connection's host turns read-only under it, then that write is a 503 with Retry-After, and the next goes through on a new connection", async () => {
    const t = await buildTenant(db);
    const one = openPostgres(hostListUrl([primaryPort]), () => undefined, 1);
    try {
      const app = createApp({ db: one, logger, rateLimiters });
      const first = await supertest(app)
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: 'Before the host turned' });
      expect(first.status).toBe(201);
      // The pool's one connection now refuses writes, as a demoted primary's would (without dropping it).
      const client = await one.pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('SET default_transaction_read_only = on');
      client.release();

      const refused = await supertest(app)
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: 'While the host is read-only' });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });

      const again = await supertest(app)
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: 'After the pool let that connection go' });
      expect(again.status).toBe(201);
      const now = await one.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(now.rows[0]!.pid).not.toBe(rows[0]!.pid);
      const stored = await db.pool.query<{ content: string }>(
        'SELECT content FROM suggestions WHERE business_id = $1 ORDER BY created_at',
        [t.business.id],
      );
      expect(stored.rows.map((row) => row.content)).toEqual([
        'Before the host turned',
        'After the pool let that connection go',
      ]);
    } finally {
      await one.close();
    }
  });
});
