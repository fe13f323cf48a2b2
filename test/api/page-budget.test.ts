import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger, useOtherApps, useTestApp, type OtherApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

/** A browser holding a session cookie, on `app`. */
const browser = (app: OtherApp, token: string) => supertest.agent(app.app).set('Cookie', `fb_session=${token}`);
const bearer = (app: OtherApp, token: string, path: string) =>
  app.request().get(path).set('Authorization', `Bearer ${token}`);

/** What a refused page must be: the dashboard's HTML page, with Retry-After, never JSON. */
function expectTooManyPage(res: supertest.Response) {
  expect(res.status, res.text.slice(0, 500)).toBe(429);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('<h1>Too many requests</h1>');
  expect(res.text).toContain('href="/app/assets/');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.text).toContain(`Please try again in ${res.headers['retry-after']}`);
}

describe('Dashboard pages spend the per-credential budget', () => {
  it('When a member opens more pages in a minute than the budget, then the next page is a 429 page with Retry-After', async () => {
    const app = otherApp({ limit: 3 });
    const t = await buildTeam(ctx.db);
    const page = browser(app, t.member.token);

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await page.get(`/app/b/${t.business.id}`)).status);
    expect(statuses).toEqual([200, 200, 200]);
    expectTooManyPage(await page.get(`/app/b/${t.business.id}`));
    // Pages outside a business count too, and are refused alike.
    expectTooManyPage(await page.get('/app/businesses'));
    // The budget is the user's, not the business's: another member is still served.
    expect((await browser(app, t.admin.token).get(`/app/b/${t.business.id}`)).status).toBe(200);
  });

  it('When a session calls the API and opens pages, then both spend its one budget, and the API still answers JSON', async () => {
    const app = otherApp({ limit: 3 });
    const t = await buildTeam(ctx.db);
    const list = `/businesses/${t.business.id}/suggestions`;

    expect((await bearer(app, t.member.token, list)).status).toBe(200);
    expect((await browser(app, t.member.token).get(`/app/b/${t.business.id}`)).status).toBe(200);
    expect((await bearer(app, t.member.token, list)).status).toBe(200);

    expectTooManyPage(await browser(app, t.member.token).get(`/app/b/${t.business.id}/issues`));
    const json = await bearer(app, t.member.token, list);
    expect(json.status).toBe(429);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), retryAfter: expect.any(Number) },
    });
    expect(json.headers['retry-after']).toBe(String(json.body.error.retryAfter));
  });

  it("When a member opens another business's page, then the 403 is charged to them like the API's", async () => {
    const app = otherApp({ limit: 2 });
    const t = await buildTeam(ctx.db);
    const other = await buildTenant(ctx.db);
    const page = browser(app, t.member.token);

    expect((await page.get(`/app/b/${other.business.id}`)).status).toBe(403);
    expect((await page.get('/app/b/not-a-uuid')).status).toBe(403);
    expectTooManyPage(await page.get(`/app/b/${t.business.id}`));
  });
});

describe("Each business's share of an instance", () => {
  // An app of its own, listening on a port: a request whose body is still arriving holds its place.
  const { logger } = capturingLogger();
  const limiters = createRateLimiters({ limit: 1_000, businessInFlight: 1, businessQueued: 1, logger });
  let server: http.Server | undefined;
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await limiters.close();
  });
  const listening = async () => {
    if (!server) {
      server = http.createServer(createApp({ db: ctx.db, logger, rateLimiters: limiters }));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    }
    return server;
  };

  /** A create whose body has only begun to arrive: it holds a place until `finish` sends the rest. */
  async function slowCreate(key: string) {
    const { port } = (await listening()).address() as AddressInfo;
    const body = JSON.stringify({ content: 'Held in flight while its body arrives' });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/suggestions',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const status = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 10));
    return { status, finish: () => req.end(body.slice(10)) };
  }

  it('When a business has its share in flight, then its next request waits, a further one is a 429, and another business is served meanwhile', async () => {
    const a = await buildTeam(ctx.db);
    const b = await buildTenant(ctx.db);
    const suggestion = await buildSuggestion(ctx.db, a.business.id);
    const app = checked(supertest.agent(await listening()));
    const page = () =>
      supertest
        .agent(server)
        .get(`/app/b/${a.business.id}/suggestions/${suggestion.id}`)
        .set('Cookie', `fb_session=${a.member.token}`);

    const held = await slowCreate(a.write);
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 1, waiting: 0 });
    let waitingAnswered = false;
    const waiting = page().then((res) => {
      waitingAnswered = true;
      return res;
    });
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 1, waiting: 1 });

    // Another business is not behind the first one's line.
    expect((await app.get('/api/v1/suggestions').set('X-API-Key', b.read)).status).toBe(200);
    expect((await app.get(`/businesses/${b.business.id}/suggestions`).set('X-API-Key', b.read)).status).toBe(200);
    // The line is full: a 429, a page for a page and the spec's JSON for the API, each with Retry-After.
    expectTooManyPage(await page());
    const refused = await app.get('/api/v1/suggestions').set('X-API-Key', a.read);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), retryAfter: 1 },
    });
    expect(refused.headers['retry-after']).toBe('1');
    expect(waitingAnswered).toBe(false);

    held.finish();
    expect(await held.status).toBe(201);
    expect((await waiting).status).toBe(200);
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 0, waiting: 0 });
  });

  it('When a waiting client goes away, then it takes no place, and the business is served again', async () => {
    const a = await buildTenant(ctx.db);
    const held = await slowCreate(a.write);
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 1, waiting: 0 });
    const { port } = server!.address() as AddressInfo;
    const gone = http.get({ host: '127.0.0.1', port, path: '/api/v1/suggestions', headers: { 'x-api-key': a.read } });
    gone.on('error', () => undefined);
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 1, waiting: 1 });
    gone.destroy();
    await expect.poll(() => limiters.businessShare.state(a.business.id)).toEqual({ serving: 1, waiting: 0 });

    held.finish();
    expect(await held.status).toBe(201);
    const app = checked(supertest.agent(server));
    expect((await app.get('/api/v1/suggestions').set('X-API-Key', a.read)).status).toBe(200);
    expect(limiters.businessShare.state(a.business.id)).toEqual({ serving: 0, waiting: 0 });
  });
});
