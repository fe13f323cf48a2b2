import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/key-format.js';
import { useOtherApps, useTestApp, type OtherApp, type OtherAppOptions } from '../support/app.js';
import { buildApiKey, buildQrCode, buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';
import { ThrowAwayRedis } from '../support/redis.js';

const redisUrl = process.env.TEST_REDIS_URL;
// Both database modes run this file at once against the same Redis: each run counts under its own prefix.
const prefix = `fbk-test:${randomUUID()}:`;

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

const get = (app: OtherApp, key: string) => app.request().get('/api/v1/suggestions').set('X-API-Key', key);
const remaining = (res: { headers: Record<string, string> }) =>
  Number(/; r=(\d+);/.exec(res.headers.ratelimit ?? '')?.[1]);
const outages = (app: OtherApp) => app.logs.filter((line) => line.includes('(Redis) unavailable')).length;
const recoveries = (app: OtherApp) => app.logs.filter((line) => line.includes('(Redis) is back')).length;

/** Two instances on one Redis, waiting (up to 10 s) until both count there: each sees the other's request. */
async function twoInstances(options: OtherAppOptions & { limit: number }): Promise<[OtherApp, OtherApp]> {
  const a = otherApp(options);
  const b = otherApp(options);
  await waitUntilShared(a, b, options.limit);
  return [a, b];
}

async function waitUntilShared(a: OtherApp, b: OtherApp, limit: number): Promise<void> {
  const { business } = await buildTenant(ctx.db);
  for (let attempt = 0; attempt < 100; attempt++) {
    // A fresh key each time, so attempts made before Redis is reachable spend nothing that matters.
    const { key } = await buildApiKey(ctx.db, business.id);
    await get(a, key);
    if (remaining(await get(b, key)) === limit - 2) return;
    await sleep(100);
  }
  throw new Error('the two instances never shared their counts');
}

describe.skipIf(!redisUrl)('Rate limit shared through Redis', () => {
  it('When two instances share one Redis, then a key gets exactly 60 requests in total', async () => {
    const [a, b] = await twoInstances({ limit: 60, redis: { url: redisUrl ?? '', prefix } });
    const t = await buildTenant(ctx.db);

    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await get(i % 2 === 0 ? a : b, t.read)).status);
    expect(statuses).toEqual(Array(60).fill(200));
    expect((await get(a, t.read)).status).toBe(429);
    expect((await get(b, t.read)).status).toBe(429);
  });

  it("When two instances share one Redis, then a session's dashboard pages and API calls spend one budget across both", async () => {
    const shared = { url: redisUrl ?? '', prefix: `${prefix}session-${randomUUID()}:` };
    const [a, b] = await twoInstances({ limit: 4, redis: shared });
    const t = await buildTeam(ctx.db);
    const page = (app: OtherApp) =>
      supertest(app.app).get(`/app/b/${t.business.id}`).set('Cookie', `fb_session=${t.member.token}`);
    const api = (app: OtherApp) =>
      app.request().get(`/businesses/${t.business.id}/suggestions`).set('Authorization', `Bearer ${t.member.token}`);

    const statuses = [(await page(a)).status, (await api(b)).status, (await page(b)).status, (await api(a)).status];
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refusedPage = await page(a);
    expect(refusedPage.status).toBe(429);
    expect(refusedPage.headers['content-type']).toMatch(/^text\/html/);
    expect(refusedPage.headers['retry-after']).toMatch(/^\d+$/);
    expect((await api(b)).status).toBe(429);
  });

  it('When two instances share one Redis, then an address spends one page write budget across both', async () => {
    const shared = { url: redisUrl ?? '', prefix: `${prefix}page-${randomUUID()}:` };
    const [a, b] = await twoInstances({ limit: 60, pageWriteLimit: 4, redis: shared });
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const vote = (app: OtherApp) =>
      app
        .request()
        .post(`/public/suggestions/${s.id}/vote`)
        .set('Origin', 'http://localhost:3000')
        .send({ code: qr.code });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await vote(i % 2 === 0 ? a : b)).status);
    expect(statuses.every((status) => status === 200 || status === 201)).toBe(true);
    expect((await vote(a)).status).toBe(429);
    expect((await vote(b)).status).toBe(429);
  });

  it('When 30 bad keys from one address reach two instances, then a valid key is served by both and a further bad key is a 429 on both', async () => {
    const shared = { url: redisUrl ?? '', prefix: `${prefix}auth-${randomUUID()}:` };
    const [a, b] = await twoInstances({ limit: 60, redis: shared });
    const t = await buildTenant(ctx.db);
    const badKey = () => generateApiKey().key;

    const failures: number[] = [];
    for (let i = 0; i < 30; i++) failures.push((await get(i % 2 === 0 ? a : b, badKey())).status);
    expect(failures).toEqual(Array(30).fill(401));
    expect([(await get(a, t.read)).status, (await get(b, t.read)).status]).toEqual([200, 200]);
    expect([(await get(a, badKey())).status, (await get(b, badKey())).status]).toEqual([429, 429]);
    expect([(await get(a, t.write)).status, (await get(b, t.write)).status]).toEqual([200, 200]);
  });

  it('When two instances share one Redis, then an address adds at most its cap of votes to a suggestion across both', async () => {
    const shared = { url: redisUrl ?? '', prefix: `${prefix}votes-${randomUUID()}:` };
    const [a, b] = await twoInstances({ limit: 60, pageVotesPerAddress: 3, redis: shared });
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    // A new agent each time: no voter cookie, a new voter for the page.
    const vote = (app: OtherApp) =>
      app
        .request()
        .post(`/public/suggestions/${s.id}/vote`)
        .set('Origin', 'http://localhost:3000')
        .send({ code: qr.code });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await vote(i % 2 === 0 ? a : b)).status);
    expect(statuses).toEqual([201, 201, 201]);
    expect((await vote(a)).status).toBe(429);
    expect((await vote(b)).status).toBe(429);
    const { rows } = await ctx.db.pool.query('SELECT upvote_count FROM suggestions WHERE id = $1', [s.id]);
    expect(rows[0].upvote_count).toBe(3);
  });

  it('When counters are stored in Redis, then they are named by key id, never by the secret', async () => {
    const a = otherApp({ redis: { url: redisUrl ?? '', prefix } });
    const t = await buildTenant(ctx.db);
    const client = createClient({ url: redisUrl });
    await client.connect();
    try {
      const counter = `${prefix}credential:key:${t.readKey.id}`;
      const countedInRedis = async () => {
        await get(a, t.read);
        return client.exists(counter);
      };
      await expect.poll(countedInRedis, { timeout: 10_000 }).toBe(1);
      const names = await client.keys(`${prefix}*`);
      expect(names.filter((name) => name.includes(t.read.slice(4)))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!redisUrl)('Rate limit when Redis fails', () => {
  // A Redis of this file's own: the machine's one is shared with other test files and stays up.
  let redis: ThrowAwayRedis | undefined;
  const server = async () => (redis ??= await ThrowAwayRedis.start());
  afterAll(async () => {
    await redis?.kill();
  });

  it('When Redis dies mid-run, then requests are still served, limited per instance, and shared again once it is back', async () => {
    const url = (await server()).url;
    const [a, b] = await twoInstances({ limit: 3, redis: { url, prefix, timeoutMs: 200, probeIntervalMs: 200 } });

    await (await server()).kill();
    const t = await buildTenant(ctx.db);
    expect([(await get(a, t.read)).status, (await get(b, t.read)).status]).toEqual([200, 200]);
    expect([(await get(a, t.read)).status, (await get(a, t.read)).status]).toEqual([200, 200]);
    expect((await get(a, t.read)).status).toBe(429);
    expect((await get(b, t.read)).status).toBe(200);
    // The client keeps reconnecting meanwhile; the outage is still one warning per instance.
    await sleep(1_000);
    expect([outages(a), outages(b)]).toEqual([1, 1]);

    await (await server()).restart();
    await waitUntilShared(a, b, 3);
    expect([recoveries(a), recoveries(b)]).toEqual([1, 1]);
  });

  it('When Redis is down at start, then requests are served, limited per instance, and shared once it comes up', async () => {
    const late = await ThrowAwayRedis.onFreePort();
    try {
      const options = { limit: 2, redis: { url: late.url, prefix, timeoutMs: 200, probeIntervalMs: 200 } };
      const [a, b] = [otherApp(options), otherApp(options)];
      const t = await buildTenant(ctx.db);
      expect([(await get(a, t.read)).status, (await get(a, t.read)).status]).toEqual([200, 200]);
      expect([(await get(a, t.read)).status, (await get(b, t.read)).status]).toEqual([429, 200]);
      await sleep(1_000);
      expect([outages(a), outages(b)]).toEqual([1, 1]);

      await late.restart();
      await waitUntilShared(a, b, 2);
    } finally {
      await late.kill();
    }
  });

  it('When Redis hangs, then requests are answered without waiting on it, and shared again once it answers', async () => {
    const url = (await server()).url;
    const [a, b] = await twoInstances({ limit: 60, redis: { url, prefix, timeoutMs: 200, probeIntervalMs: 200 } });
    const t = await buildTenant(ctx.db);

    (await server()).pause();
    try {
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        expect((await get(i % 2 === 0 ? a : b, t.read)).status).toBe(200);
        expect(Date.now() - started).toBeLessThan(2_000);
      }
      expect([outages(a), outages(b)]).toEqual([1, 1]);
    } finally {
      (await server()).resume();
    }
    await waitUntilShared(a, b, 60);
  });
});
