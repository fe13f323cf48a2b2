import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Express } from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { openReadReplicas } from '../../src/db/open.js';
import type { ReadReplicas } from '../../src/db/replicas.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { capturingLogger } from '../support/app.js';
import { openTestDatabase, testDatabaseUrl, testMode } from '../support/database.js';
import { buildQrCode, buildTenant } from '../support/factories.js';
import { startStandby, STANDBY_START_MS, type Standby } from '../support/standby.js';

/**
 * Reads on a real hot standby of the test PostgreSQL (test/support/standby.ts). The embedded run has
 * no replica; the PostgreSQL run starts one, or says why it cannot and skips.
 */
async function standbyOrReason(): Promise<Standby | string> {
  if (testMode() !== 'postgres') {
    return process.env.TEST_DATABASE_URL ? '' : 'they need PostgreSQL (TEST_DATABASE_URL) and its binaries';
  }
  return startStandby(testDatabaseUrl());
}

const started = await standbyOrReason();
const standby = typeof started === 'string' ? undefined : started;
// The embedded run skips quietly when the PostgreSQL run of the same suite has the replica.
if (typeof started === 'string' && started) console.warn(`read-replica tests skipped: ${started}`);

const MAX_LAG_MS = 1000;

/** Up to `tries` times, 100 ms apart, until `done` answers true: whether it ever did. */
async function eventually(done: () => boolean | Promise<boolean>, tries = 100): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (await done()) return true;
    await sleep(100);
  }
  return false;
}

describe.skipIf(!standby)('Read replicas (a hot standby of the test PostgreSQL)', () => {
  const { logger } = capturingLogger();
  let db: Database;
  let reads: ReadReplicas;
  let app: Express;
  let metricsServer: Server;

  beforeAll(async () => {
    db = await openTestDatabase();
    const metrics = new Metrics(db.pool);
    const config = { DATABASE_READ_URL: [standby!.url], READ_REPLICA_MAX_LAG_MS: MAX_LAG_MS };
    reads = openReadReplicas(config, db, () => undefined, logger, metrics);
    reads.start();
    const rateLimiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
    app = createApp({ db, logger, rateLimiters, metrics, reads });
    metricsServer = metrics.listen(0, '127.0.0.1');
    expect(await eventually(() => reads.status()[0]!.up && reads.status()[0]!.lagMs < MAX_LAG_MS)).toBe(true);
  }, STANDBY_START_MS);

  afterAll(async () => {
    await standby?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await reads?.stop();
    await db?.close();
    metricsServer?.close();
    await standby?.remove();
  }, STANDBY_START_MS);

  const request = () => supertest(app);

  /** One series of the metrics endpoint, 0 when absent. */
  async function series(name: string): Promise<number> {
    const text = (await supertest(metricsServer).get('/metrics').expect(200)).text;
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.slice(name.length + 1));
  }
  const readsOn = (target: 'primary' | 'replica', kind: string) =>
    series(`db_reads_total{target="${target}",kind="${kind}"}`);
  const fallbacks = (reason: string) => series(`db_replica_fallbacks_total{reason="${reason}"}`);

  type Tenant = Awaited<ReturnType<typeof buildTenant>>;
  const suggest = (t: Tenant, content: string) =>
    request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content }).expect(201);
  const exportOf = (t: Tenant) => request().get('/api/v1/export/suggestions').set('X-API-Key', t.read);
  const overviewOf = (t: Tenant) =>
    request().get(`/businesses/${t.business.id}/analytics/overview`).set('X-API-Key', t.read);
  const contents = (res: { body: { data: { content: string }[] } }) => res.body.data.map((s) => s.content).sort();

  /** Reads `read` until one was served by the replica (the counter of `kind` moved): whether one was. */
  async function untilServedByReplica(kind: string, read: () => Promise<unknown>): Promise<boolean> {
    return eventually(async () => {
      const before = await readsOn('replica', kind);
      await read();
      return (await readsOn('replica', kind)) > before;
    });
  }

  it("When the replica is healthy, then exports, the analytics overview and the dashboard's list are served from it, with the primary's data", async () => {
    const t = await buildTenant(db);
    await suggest(t, 'Warmer coffee');
    await suggest(t, 'More chairs');

    expect(await untilServedByReplica('export', () => exportOf(t).expect(200))).toBe(true);
    const exported = await exportOf(t).expect(200);
    expect(contents(exported)).toEqual(['More chairs', 'Warmer coffee']);

    expect(await untilServedByReplica('analytics', () => overviewOf(t).expect(200))).toBe(true);
    const overview = await overviewOf(t).expect(200);
    expect(overview.body.suggestions.total).toBe(2);
    expect(await readsOn('replica', 'export')).toBeGreaterThan(0);
    expect(await readsOn('replica', 'analytics')).toBeGreaterThan(0);

    // The dashboard family's list, read once the replica has the business (then from the cache).
    const listsBefore = await readsOn('replica', 'dashboard');
    const listed = await request().get(`/businesses/${t.business.id}/suggestions`).set('X-API-Key', t.read).expect(200);
    expect(contents(listed)).toEqual(['More chairs', 'Warmer coffee']);
    expect(await readsOn('replica', 'dashboard')).toBe(listsBefore + 1);
  });

  it("When the replica is healthy, then the public page's list is served from it", async () => {
    const t = await buildTenant(db);
    await request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Open earlier', visibility: 'public' })
      .expect(201);
    const qr = await buildQrCode(db, t.business.id);
    const page = () => request().get(`/public/suggestions?code=${qr.code}`).expect(200);
    expect(await untilServedByReplica('page', page)).toBe(true);
    expect(contents(await page())).toEqual(['Open earlier']);
  });

  it('When a business writes and reads at once while the replica is behind, then the read sees the write (read-your-writes), and a cached search is never answered stale', async () => {
    const t = await buildTenant(db);
    await suggest(t, 'Quieter music');
    const search = () => request().get('/api/v1/suggestions?q=quieter').set('X-API-Key', t.read).expect(200);
    // Once the replica has the business, its search is read there once, and then served from the cache.
    expect(await untilServedByReplica('export', () => exportOf(t).expect(200))).toBe(true);
    const searchesBefore = await readsOn('replica', 'search');
    expect(contents(await search())).toEqual(['Quieter music']);
    expect(await readsOn('replica', 'search')).toBe(searchesBefore + 1);
    // The replica stops replaying: it still looks fresh for up to the bound, but not for this business.
    await standby!.query('SELECT pg_wal_replay_pause()');
    try {
      // Normally "behind_business"; on a machine so loaded that the bound passed meanwhile, "lagging".
      const fallbacksBefore = (await fallbacks('behind_business')) + (await fallbacks('lagging'));
      await suggest(t, 'Quieter fans');
      const exported = await exportOf(t).expect(200);
      expect(contents(exported)).toEqual(['Quieter fans', 'Quieter music']);
      expect(contents(await search())).toEqual(['Quieter fans', 'Quieter music']);
      expect((await fallbacks('behind_business')) + (await fallbacks('lagging'))).toBeGreaterThan(fallbacksBefore);
    } finally {
      await standby!.query('SELECT pg_wal_replay_resume()');
    }
  });

  it("When a write does not move the change number (a new location), then the next read still sees it: the write's position is remembered", async () => {
    const t = await buildTenant(db);
    await suggest(t, 'A bench outside');
    expect(await untilServedByReplica('analytics', () => overviewOf(t).expect(200))).toBe(true);
    await standby!.query('SELECT pg_wal_replay_pause()');
    try {
      await request()
        .post(`/businesses/${t.business.id}/locations`)
        .set('X-API-Key', t.write)
        .send({ name: 'Terrace' })
        .expect(201);
      const overview = await overviewOf(t).expect(200);
      expect(overview.body.recent_activity[0]).toMatchObject({ type: 'location.created' });
    } finally {
      await standby!.query('SELECT pg_wal_replay_resume()');
    }
  });

  it('When the replica stops replaying, then reads fall back to the primary once its lag passes the bound, and return to it once it resumes', async () => {
    const t = await buildTenant(db);
    const writer = await buildTenant(db);
    await suggest(t, 'Brighter lights');
    expect(await untilServedByReplica('analytics', () => overviewOf(t).expect(200))).toBe(true);

    await standby!.query('SELECT pg_wal_replay_pause()');
    try {
      const laggingBefore = await fallbacks('lagging');
      // Another business keeps writing, so the primary moves on while the replica stands still.
      const fellBack = await eventually(async () => {
        await suggest(writer, 'Keep the primary moving');
        const res = await overviewOf(t).expect(200);
        expect(res.body.suggestions.total).toBe(1);
        return (await fallbacks('lagging')) > laggingBefore;
      });
      expect(fellBack).toBe(true);
      expect(reads.status()[0]!.lagMs).toBeGreaterThanOrEqual(MAX_LAG_MS);
    } finally {
      await standby!.query('SELECT pg_wal_replay_resume()');
    }
    expect(await untilServedByReplica('analytics', () => overviewOf(t).expect(200))).toBe(true);
  });

  it(
    'When the replica is stopped, then no request fails, and reads return to it on their own once it is back',
    async () => {
      const t = await buildTenant(db);
      await suggest(t, 'Softer chairs');
      expect(await untilServedByReplica('export', () => exportOf(t).expect(200))).toBe(true);

      const skippedBefore = (await fallbacks('failed')) + (await fallbacks('down'));
      await standby!.stop('immediate');
      try {
        for (let i = 0; i < 5; i++) {
          expect(contents(await exportOf(t).expect(200))).toEqual(['Softer chairs']);
          expect((await overviewOf(t).expect(200)).body.suggestions.total).toBe(1);
        }
        expect(reads.status()[0]!.up).toBe(false);
        expect((await fallbacks('failed')) + (await fallbacks('down'))).toBeGreaterThan(skippedBefore);
      } finally {
        await standby!.start();
      }
      expect(await untilServedByReplica('export', () => exportOf(t).expect(200))).toBe(true);
      expect(reads.status()[0]!.up).toBe(true);
    },
    STANDBY_START_MS,
  );
});
