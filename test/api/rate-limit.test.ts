import express from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../../src/auth/key-format.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger, requestLine, useOtherApps, useTestApp } from '../support/app.js';
import { buildTeam, buildTenant, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

/** `count` requests with `key`, one after the other; the statuses in order. */
async function spend(agent: supertest.Agent, key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push((await agent.get('/api/v1/suggestions').set('X-API-Key', key)).status);
  }
  return statuses;
}

const rateLimitBody = (retryAfter: number) => ({
  error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), retryAfter },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Rate limit per API key', () => {
  it('When a key makes its 61st request within a minute, then it is a 429 with the spec body and Retry-After', async () => {
    // Only the clock is frozen, so the whole minute is left and retryAfter is exactly 60.
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await buildTenant(ctx.db);
    const agent = otherApp().request();

    expect(await spend(agent, t.read, 60)).toEqual(Array(60).fill(200));
    const res = await agent.get('/api/v1/suggestions').set('X-API-Key', t.read);

    expect(res.status).toBe(429);
    expect(res.body).toEqual(rateLimitBody(60));
    expect(res.headers['retry-after']).toBe('60');
    expect(res.headers['ratelimit']).toMatch(/; r=0; t=60$/);
  });

  it('When one key is over its limit, then another key of the same business is still served', async () => {
    const app = otherApp({ limit: 2 });
    const t = await buildTenant(ctx.db);

    expect(await spend(app.request(), t.read, 3)).toEqual([200, 200, 429]);
    expect(await spend(app.request(), t.write, 2)).toEqual([200, 200]);
  });

  it('When the window has passed, then the key is served again with a fresh budget', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = otherApp({ limit: 2 });
    const t = await buildTenant(ctx.db);
    expect(await spend(app.request(), t.read, 3)).toEqual([200, 200, 429]);

    vi.setSystemTime(Date.now() + 59_000);
    const early = await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(early.status).toBe(429);
    expect(early.body).toEqual(rateLimitBody(1));
    expect(early.headers['retry-after']).toBe('1');

    vi.setSystemTime(Date.now() + 1_000);
    const res = await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit']).toMatch(/; r=1; t=60$/);
  });

  it('When a request is served, then RateLimit-Policy and RateLimit describe the budget, without X-RateLimit headers', async () => {
    const t = await buildTenant(ctx.db);
    const res = await otherApp().request().get('/api/v1/suggestions').set('X-API-Key', t.read);

    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-policy']).toMatch(/^"60-in-1min"; q=60; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    expect(res.headers['ratelimit']).toMatch(/^"60-in-1min"; r=59; t=(59|60)$/);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('When an authenticated request fails (404), then it counts and carries the headers too', async () => {
    const t = await buildTenant(ctx.db);
    const app = otherApp();
    const res = await app.request().get('/api/v1/no-such-route').set('X-API-Key', t.read);
    expect(res.status).toBe(404);
    expect(res.headers['ratelimit']).toMatch(/; r=59; t=\d+$/);
    const next = await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(next.headers['ratelimit']).toMatch(/; r=58; t=\d+$/);
  });
});

describe('Rate limit on failed authentication', () => {
  const badKey = () => generateApiKey().key;

  it('When an address keeps failing authentication, then its further failures are a 429 with the spec body', async () => {
    const app = otherApp({ failedAuthLimit: 3 });

    expect(await spend(app.request(), badKey(), 3)).toEqual([401, 401, 401]);
    const res = await app.request().get('/api/v1/suggestions').set('X-API-Key', badKey());
    expect(res.status).toBe(429);
    expect(res.body).toEqual(rateLimitBody(expect.any(Number)));
    expect(res.body.error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(res.headers['retry-after']).toBe(String(res.body.error.retryAfter));
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('When 30 bad keys came from an address (integrators behind one NAT), then a valid key from it is served and a further bad key is a 429', async () => {
    const app = otherApp(); // the default budget: 30 failures a minute
    const t = await buildTenant(ctx.db);

    expect(await spend(app.request(), badKey(), 30)).toEqual(Array(30).fill(401));
    expect(await spend(app.request(), t.read, 3)).toEqual([200, 200, 200]);
    expect(await spend(app.request(), badKey(), 2)).toEqual([429, 429]);
    expect(await spend(app.request(), 'fbk_nope', 1)).toEqual([429]);
    expect(await spend(app.request(), t.write, 1)).toEqual([200]);
  });

  it('When 30 bad session tokens came from an address, then a valid session from it is served and a further bad token is a 429', async () => {
    const app = otherApp();
    const t = await buildTeam(ctx.db);
    const me = (token: string) => app.request().get('/auth/me').set('Authorization', `Bearer ${token}`);
    const issues = (token: string) =>
      app.request().get(`/businesses/${t.business.id}/issues`).set('Authorization', `Bearer ${token}`);
    const badToken = () => `fbs_${'A'.repeat(43)}`;

    const failures: number[] = [];
    for (let i = 0; i < 15; i++) failures.push((await me(badToken())).status, (await issues(badToken())).status);
    expect(failures).toEqual(Array(30).fill(401));
    expect((await me(t.member.token)).status).toBe(200);
    expect((await issues(t.member.token)).status).toBe(200);
    expect((await me(badToken())).status).toBe(429);
    expect((await issues(badToken())).status).toBe(429);
  });

  it('When requests authenticate, then they do not use up the failed-attempt budget', async () => {
    const app = otherApp({ failedAuthLimit: 3 });
    const t = await buildTenant(ctx.db);

    expect(await spend(app.request(), t.read, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await spend(app.request(), badKey(), 3)).toEqual([401, 401, 401]);
  });

  it('When the app trusts its proxy, then failures are counted per forwarded client address', async () => {
    const app = otherApp({ failedAuthLimit: 2, config: { TRUST_PROXY: 'loopback' } });
    const from = (address: string) =>
      app.request().get('/api/v1/suggestions').set('X-Forwarded-For', address).set('X-API-Key', badKey());

    expect((await from('203.0.113.7')).status).toBe(401);
    expect((await from('203.0.113.7')).status).toBe(401);
    expect((await from('203.0.113.7')).status).toBe(429);
    expect((await from('198.51.100.4')).status).toBe(401);
  });
});

describe('Routes outside the limits', () => {
  it('When /health is called more often than any limit, then it always answers 200 without RateLimit headers', async () => {
    const app = otherApp({ limit: 1, failedAuthLimit: 1 });
    for (let i = 0; i < 5; i++) {
      const res = await app.request().get('/health');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });
});

describe('Rate limit on the business-scoped family', () => {
  it('When a dashboard user spends the budget, then the next request is a 429, per user', async () => {
    const app = otherApp({ limit: 2 });
    const t = await buildTeam(ctx.db);
    const path = `/businesses/${t.business.id}/suggestions`;
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.request().get(path).set('Authorization', `Bearer ${t.member.token}`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await app.request().get(path).set('Authorization', `Bearer ${t.admin.token}`)).status).toBe(200);
  });

  it('When one key is used on both families, then they share its one budget', async () => {
    const app = otherApp({ limit: 2 });
    const t = await buildTeam(ctx.db);
    expect((await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
    expect(
      (await app.request().get(`/businesses/${t.business.id}/issues`).set('Authorization', `Bearer ${t.read}`)).status,
    ).toBe(200);
    const res = await app.request().get('/api/v1/issues').set('X-API-Key', t.read);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});

describe('failed-authentication budget under concurrency', () => {
  it('When many valid requests from one address are in flight at once, then none is refused by the failure budget', async () => {
    const app = otherApp({ failedAuthLimit: 3, limit: 1_000 });
    const t = await buildTenant(ctx.db);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => app.request().get('/api/v1/suggestions').set('X-API-Key', t.read)),
    ).then((all) => all.map((res) => res.status));
    expect(statuses).toEqual(Array(20).fill(200));
  });

  it('When many bad keys from one address are in flight at once, then exactly the budget of them is a 401 and the rest a 429', async () => {
    const app = otherApp({ failedAuthLimit: 3, limit: 1_000 });
    const t = await buildTenant(ctx.db);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => app.request().get('/api/v1/suggestions').set('X-API-Key', generateApiKey().key)),
    ).then((all) => all.map((res) => res.status));
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect((await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
  });
});

describe('403s after authentication are charged to the credential', () => {
  it('When a non-member session keeps calling another business, then its 403s use up its budget and it gets a 429', async () => {
    const app = otherApp({ limit: 2 });
    const mine = await buildTeam(ctx.db);
    const theirs = await buildTenant(ctx.db);
    const call = () =>
      app
        .request()
        .get(`/businesses/${theirs.business.id}/suggestions`)
        .set('Authorization', `Bearer ${mine.member.token}`);
    const first = await call();
    expect(first.status).toBe(403);
    expect(first.headers['ratelimit']).toMatch(/; r=1; t=\d+$/);
    expect((await call()).status).toBe(403);
    const spent = await call();
    expect(spent.status).toBe(429);
    expect(spent.body).toEqual(rateLimitBody(expect.any(Number)));
    // The same user's budget: their own business is refused too until the window ends.
    const own = await app
      .request()
      .get(`/businesses/${mine.business.id}/issues`)
      .set('Authorization', `Bearer ${mine.member.token}`);
    expect(own.status).toBe(429);
  });

  it("When a key calls another business's path, or a free-plan key calls at all, then each 403 counts against that key", async () => {
    const app = otherApp({ limit: 2 });
    const mine = await buildTenant(ctx.db);
    const theirs = await buildTenant(ctx.db);
    const other = () => app.request().get(`/businesses/${theirs.business.id}/issues`).set('X-API-Key', mine.read);
    expect([(await other()).status, (await other()).status, (await other()).status]).toEqual([403, 403, 429]);

    const free = await buildTenant(ctx.db, { plan: 'free' });
    expect(await spend(app.request(), free.read, 3)).toEqual([403, 403, 429]);
  });
});

describe('one failure budget per address', () => {
  const badKey = () => generateApiKey().key;

  it('When an address fails with a key, a password and an invite token, then they add up to one budget', async () => {
    const app = otherApp({ failedAuthLimit: 3, limit: 1_000 });
    const t = await buildTenant(ctx.db);
    expect((await app.request().get('/api/v1/suggestions').set('X-API-Key', badKey())).status).toBe(401);
    expect(
      (await app.request().post('/auth/login').send({ email: 'nobody@example.com', password: 'guess' })).status,
    ).toBe(401);
    expect(
      (
        await app
          .request()
          .post('/invites/accept')
          .send({ token: 'fbi_guess', name: 'Eve', password: 'a long password' })
      ).status,
    ).toBe(401);
    // Spent: every further failure is a 429, and so is every credential in a body (sign-in, invite),
    // which is refused before it is checked; a valid key in a header is still served.
    expect((await app.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
    for (const res of [
      await app.request().get('/api/v1/suggestions').set('X-API-Key', badKey()),
      await app.request().post('/auth/login').send({ email: 'nobody@example.com', password: 'guess' }),
      await app
        .request()
        .post('/invites/accept')
        .send({ token: 'fbi_guess', name: 'Eve', password: 'a long password' }),
      await app.request().get('/auth/me').set('Authorization', 'Bearer fbs_guess'),
    ]) {
      expect(res.status, requestLine(res)).toBe(429);
      expect(res.body).toEqual(rateLimitBody(expect.any(Number)));
    }
  });

  it('When invite tokens keep failing, then they are counted like failed sign-ins', async () => {
    const app = otherApp({ failedAuthLimit: 2 });
    const accept = () =>
      app.request().post('/invites/accept').send({ token: 'fbi_guess', name: 'Eve', password: 'a long password' });
    expect([(await accept()).status, (await accept()).status, (await accept()).status]).toEqual([401, 401, 429]);
  });

  it('When sign-ins succeed, then they give back the place they held in the budget', async () => {
    const app = otherApp({ failedAuthLimit: 2 });
    const t = await buildTeam(ctx.db);
    const invited = await ctx
      .request()
      .post(`/businesses/${t.business.id}/team/invite`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ email: uniqueEmail('budget'), role: 'member' });
    const joined = await app
      .request()
      .post('/invites/accept')
      .send({ token: invited.body.token, name: 'Kim', password: 'a long password' });
    expect(joined.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const res = await app
        .request()
        .post('/auth/login')
        .send({ email: joined.body.user.email, password: 'a long password' });
      expect(res.status).toBe(200);
    }
    expect(await spend(app.request(), badKey(), 2)).toEqual([401, 401]);
  });
});

describe('the session routes are inside the per-credential budget', () => {
  it('When /auth/me and /auth/logout are called, then they carry RateLimit headers and share the user budget', async () => {
    const app = otherApp({ limit: 3 });
    const t = await buildTeam(ctx.db);
    const auth = { Authorization: `Bearer ${t.member.token}` };
    const me = await app.request().get('/auth/me').set(auth);
    expect(me.status).toBe(200);
    expect(me.headers['ratelimit']).toMatch(/; r=2; t=\d+$/);
    expect((await app.request().get(`/businesses/${t.business.id}/issues`).set(auth)).status).toBe(200);
    expect((await app.request().get('/auth/me').set(auth)).status).toBe(200);
    const spent = await app.request().get('/auth/me').set(auth);
    expect(spent.status).toBe(429);
    const logout = await app.request().post('/auth/logout').set(auth);
    expect(logout.status).toBe(429);
    // Not signed out by a refused logout: the session still works once the window resets.
    expect((await ctx.request().get('/auth/me').set(auth)).status).toBe(200);
  });
});

describe('the limiters themselves', () => {
  it('When every limiter is made and used once, then nothing is logged as a warning or an error', async () => {
    const { logger, logs } = capturingLogger();
    const limiters = createRateLimiters({ limit: 10, failedAuthLimit: 10, logger });
    try {
      const app = express();
      for (const kind of ['read', 'write'] as const) {
        for (const answer of ['json', 'html'] as const) {
          app.get(`/${kind}/${answer}`, limiters.pageBudget(kind, answer), (_req, res) => {
            res.sendStatus(204);
          });
        }
      }
      for (const path of ['/read/json', '/read/html', '/write/json', '/write/html']) {
        expect((await supertest(app).get(path)).status, path).toBe(204);
      }
      const complaints = logs
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((l) => l.level >= 40);
      expect(complaints).toEqual([]);
    } finally {
      await limiters.close();
    }
  });
});
