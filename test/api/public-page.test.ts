import supertest from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters, type RateLimiters } from '../../src/http/rate-limit.js';
import { ScanCounter } from '../../src/public-page/scan-counter.js';
import { createLogger } from '../../src/config/logger.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { buildLocation, buildQrCode, buildSuggestion, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
const ORIGIN = 'http://feedback.test';
/** The pages' clock: tests move it past the form's minimum fill time instead of waiting. */
let now = Date.now();
const limiters: RateLimiters[] = [];
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
});

/** An app of its own on the file's database, made at its first request (the database opens in beforeAll). */
function pageApp(
  limits: { pageWriteLimit?: number; pageReadLimit?: number; pageVotesPerAddress?: number } = {},
  clock = () => now,
) {
  let made: { app: ReturnType<typeof createApp>; scans: ScanCounter } | undefined;
  const make = () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({
      limit: 100_000,
      failedAuthLimit: 100_000,
      pageWriteLimit: 100_000,
      pageReadLimit: 100_000,
      ...limits,
      logger,
    });
    limiters.push(rateLimiters);
    const scans = new ScanCounter(ctx.db.pool, logger, 0);
    const app = createApp({
      db: ctx.db,
      logger,
      rateLimiters,
      config: { PUBLIC_BASE_URL: ORIGIN },
      publicPage: { now: clock, scans },
    });
    return { app, scans };
  };
  return {
    scans: () => (made ??= make()).scans,
    request: () => checked(supertest.agent((made ??= make()).app)),
  };
}
const page = pageApp();

async function scene(options: { approvalRequired?: boolean; active?: boolean } = {}) {
  const t = await buildTenant(ctx.db, { approvalRequired: options.approvalRequired });
  const location = await buildLocation(ctx.db, t.business.id, 'Terrace');
  const qr = await buildQrCode(ctx.db, t.business.id, { locationId: location.id, active: options.active ?? true });
  return { t, location, qr, url: `/f/${qr.code}` };
}

const tokenIn = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** Opens the page, lets the minimum fill time pass, and posts the form as a browser does. */
async function postForm(agent: supertest.Agent, url: string, fields: Record<string, string>) {
  const opened = await agent.get(url);
  now += 5_000;
  return agent
    .post(url)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ form_token: tokenIn(opened.text), website: '', ...fields });
}

describe('the public feedback page', () => {
  it('When an unknown or malformed code is opened, then it is a 404 page, or JSON when JSON is asked for', async () => {
    for (const path of ['/f/Zz9Zz9Zz9Z', '/f/%3Cscript%3E']) {
      const res = await page.request().get(path).set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('Page not found');
      expect(res.text).not.toContain('<form');
    }
    const json = await page.request().get('/f/Zz9Zz9Zz9Z').set('Accept', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body).toMatchObject({ statusCode: 404, message: 'Feedback page not found' });
  });

  it('When an inactive code is opened, then it is a 410 page without a form, and the JSON list a 410', async () => {
    const { qr, url } = await scene({ active: false });
    const res = await page.request().get(url);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This code is no longer active');
    expect(res.text).not.toContain('<form');
    const json = await page.request().get(`/public/suggestions?code=${qr.code}`);
    expect(json.status).toBe(410);
    expect(json.body.code).toBe('CODE_INACTIVE');
  });

  it('When a code is opened, then the page shows the business, the location and only the suggestions it may show', async () => {
    const { t, qr, url } = await scene();
    const b = t.business.id;
    const shown = await buildSuggestion(ctx.db, b, {
      content: 'Shown: public, no review',
      visibility: 'public',
      customerName: 'Ana',
      customerEmail: 'ana.secret@example.com',
    });
    const approved = await buildSuggestion(ctx.db, b, {
      content: 'Shown: approved',
      visibility: 'public',
      reviewState: 'approved',
      status: 'in_progress',
    });
    for (const hidden of [
      { content: 'Hidden: internal', visibility: 'internal' as const },
      { content: 'Hidden: awaiting review', visibility: 'public' as const, reviewState: 'pending' as const },
      { content: 'Hidden: review rejected', visibility: 'public' as const, reviewState: 'rejected' as const },
      { content: 'Hidden: rejected status', visibility: 'public' as const, status: 'rejected' as const },
    ]) {
      await buildSuggestion(ctx.db, b, { ...hidden, customerEmail: 'hidden@example.com' });
    }
    const res = await page.request().get(url);
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain(t.business.name);
    expect(res.text).toContain('Terrace');
    expect(res.text).toContain('Shown: public, no review');
    expect(res.text).toContain('Shown: approved');
    expect(res.text).toContain('In progress');
    expect(res.text).toContain('by Ana');
    expect(res.text).not.toContain('Hidden:');
    expect(res.text).not.toMatch(/@example\.com/);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // no-referrer would make browsers send `Origin: null` with the page's own posts
    expect(res.headers['referrer-policy']).toBe('same-origin');

    const json = await page.request().get(`/public/suggestions?code=${qr.code}&sort=new`);
    expect(json.status).toBe(200);
    expect(json.body.data.map((s: { id: string }) => s.id).sort()).toEqual([shown.id, approved.id].sort());
    expect(json.text).not.toMatch(/@example\.com|email/);
  });

  it("When a page is served, then it carries none of its templates' indentation, and what a customer wrote keeps its own", async () => {
    const { t, url } = await scene();
    const content = 'First line\n    second line, indented by its author';
    await buildSuggestion(ctx.db, t.business.id, { content, visibility: 'public' });
    const res = await page.request().get(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Language, Cookie');
    // The templates are compact (src/http/pages.ts): a line break, never a line of indentation.
    expect(res.text).not.toMatch(/\n[ \t]+</);
    expect(res.text).toContain(`<p class="content">${content}</p>`);
  });

  it('When feedback is posted from the page, then it is a public suggestion from the QR code, at its location, shown with thanks', async () => {
    const { location, url } = await scene();
    const agent = page.request();
    const res = await postForm(agent, url, {
      content: 'The terrace heaters are wonderful, thank you!',
      customer_name: 'Bea',
      customer_email: 'bea@example.com',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^${url}\\?thanks=shown&s=[0-9a-f-]{36}$`));
    const id = /s=([0-9a-f-]{36})/.exec(res.headers.location as string)![1];
    const { rows } = await ctx.db.pool.query(
      'SELECT visibility, source, location_id, sentiment, customer_email FROM suggestions WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      visibility: 'public',
      source: 'qr_code',
      location_id: location.id,
      sentiment: 'positive',
      customer_email: 'bea@example.com',
    });
    const thanked = await agent.get(res.headers.location as string);
    expect(thanked.text).toContain('Thank you!');
    expect(thanked.text).toContain('The terrace heaters are wonderful, thank you!');
    expect(thanked.text).not.toContain('bea@example.com');
  });

  it('When the business requires approval, then the customer is told so and the item appears only once approved', async () => {
    const { t, url } = await scene({ approvalRequired: true });
    const agent = page.request();
    const res = await postForm(agent, url, { content: 'Please open earlier on Sundays' });
    expect(res.status).toBe(303);
    // with the proof that lets this browser follow it (docs/notifications.md)
    expect(res.headers.location).toMatch(new RegExp(`^${url}\\?thanks=review&s=[0-9a-f-]{36}&posted=[\\w-]{43}$`));
    const notice = await agent.get(res.headers.location as string);
    expect(notice.text).toContain('It will appear here after review.');
    expect(notice.text).not.toContain('Please open earlier on Sundays');
    const { rows } = await ctx.db.pool.query(
      `SELECT id FROM suggestions WHERE business_id = $1 AND review_state = 'pending'`,
      [t.business.id],
    );
    const approve = await ctx
      .request()
      .patch(`/businesses/${t.business.id}/suggestions/${rows[0].id}`)
      .set('X-API-Key', t.write)
      .send({ review: 'approve' });
    expect(approve.status).toBe(200);
    expect((await agent.get(url)).text).toContain('Please open earlier on Sundays');
  });

  it('When the form breaks an input rule, then it is a 400 page with the form, the text kept and nothing stored', async () => {
    const { t, url } = await scene();
    for (const [fields, message] of [
      [{ content: '   ' }, 'Please write your feedback'],
      [{ content: 'x'.repeat(2001) }, 'Please write your feedback'],
      [{ content: 'nul \u0000 here' }, 'Please write your feedback'],
      [{ content: 'Kept text', customer_email: 'not an email' }, 'email address does not look right'],
    ] as const) {
      const res = await postForm(page.request(), url, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain(message);
      expect(res.text).toContain('<form');
    }
    const kept = await postForm(page.request(), url, { content: 'Kept text', customer_email: 'nope' });
    expect(kept.text).toContain('>Kept text</textarea>');
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('When a bot fills the honeypot, posts at once, or without or with a forged token, then it is refused', async () => {
    const { t, url } = await scene();
    const agent = page.request();
    const honeypot = await postForm(agent, url, { content: 'Buy now', website: 'http://spam.example' });
    expect(honeypot.status).toBe(400);
    const opened = await agent.get(url);
    const tooFast = await agent
      .post(url)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ content: 'Buy now', form_token: tokenIn(opened.text) });
    expect(tooFast.status).toBe(400);
    expect(tooFast.text).toContain('take a moment');
    now += 5_000;
    for (const form_token of ['', '0.abc', `${now - 10_000}.${'A'.repeat(43)}`]) {
      const res = await agent.post(url).set('Origin', ORIGIN).type('form').send({ content: 'Buy now', form_token });
      expect(res.status).toBe(400);
    }
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('When the same form is posted again, then nothing more is stored and it shows the thank-you page of the first post', async () => {
    const { t, url } = await scene();
    const agent = page.request();
    const opened = await agent.get(url);
    now += 5_000;
    const form = { form_token: tokenIn(opened.text), website: '', content: 'Posted once, sent twice' };
    const send = () => agent.post(url).set('Origin', ORIGIN).type('form').send(form);
    const first = await send();
    expect(first.status).toBe(303);
    expect(first.headers.location).toMatch(/\?thanks=shown&s=/);
    const again = await send();
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    // Two at once (a double click): one of them stores it, the other answers as the first.
    const opened2 = await agent.get(url);
    now += 5_000;
    const twice = { form_token: tokenIn(opened2.text), website: '', content: 'Double click' };
    const both = await Promise.all([0, 1].map(() => agent.post(url).set('Origin', ORIGIN).type('form').send(twice)));
    expect(both.map((res) => res.status)).toEqual([303, 303]);
    expect(both[1]!.headers.location).toBe(both[0]!.headers.location);
    const { rows } = await ctx.db.pool.query(
      'SELECT content, count(*)::int AS n FROM suggestions WHERE business_id = $1 GROUP BY content ORDER BY content',
      [t.business.id],
    );
    expect(rows).toEqual([
      { content: 'Double click', n: 1 },
      { content: 'Posted once, sent twice', n: 1 },
    ]);
  });

  it('When a form that awaited review is posted again, then it is thanked for review again and nothing more is stored', async () => {
    const { t, url } = await scene({ approvalRequired: true });
    const agent = page.request();
    const opened = await agent.get(url);
    now += 5_000;
    const form = { form_token: tokenIn(opened.text), website: '', content: 'Please open earlier' };
    const thanks: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await agent.post(url).set('Origin', ORIGIN).type('form').send(form);
      expect(res.status).toBe(303);
      thanks.push(res.headers.location as string);
    }
    expect(thanks[0]).toMatch(new RegExp(`^${url}\\?thanks=review&s=`));
    expect(thanks[1]).toBe(thanks[0]);
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('When the JSON side posts the same form_token twice, then the second is a 409 and nothing more is stored', async () => {
    const { t, qr } = await scene();
    const agent = page.request();
    const list = await agent.get(`/public/suggestions?code=${qr.code}`);
    now += 5_000;
    const body = { code: qr.code, content: 'Sent by a script', form_token: list.body.form_token as string };
    const first = await agent.post('/public/suggestions').set('Origin', ORIGIN).send(body);
    expect(first.status).toBe(201);
    const again = await agent.post('/public/suggestions').set('Origin', ORIGIN).send(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, code: 'CONFLICT' });
    expect(again.body.message).toContain('form_token');
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('When forms are shown in the same millisecond, then each has a token of its own that sends its feedback', async () => {
    const { t, url } = await scene();
    const [a, b] = [page.request(), page.request()];
    const shown = [await a.get(url), await b.get(url)];
    expect(tokenIn(shown[0]!.text)).not.toBe(tokenIn(shown[1]!.text));
    now += 5_000;
    for (const [i, agent] of [a, b].entries()) {
      const res = await agent
        .post(url)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ form_token: tokenIn(shown[i]!.text), website: '', content: `Same moment ${i}` });
      expect(res.status).toBe(303);
    }
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(2);
  });

  it('When a used form token has expired, then a later post prunes its row', async () => {
    // A post prunes the oldest expired rows of every business, a few at a time. Starting this page's
    // clock a month back makes its token the oldest in the table, whatever other tests and earlier
    // runs on a shared PostgreSQL database left behind (with today's clock, 20 older rows hid it).
    let clock = Date.now() - 30 * 24 * 60 * 60 * 1000;
    const app = pageApp({}, () => clock);
    const { t, url } = await scene();
    const agent = app.request();
    const send = async (content: string) => {
      const opened = await agent.get(url);
      clock += 5_000;
      return agent
        .post(url)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ form_token: tokenIn(opened.text), website: '', content });
    };
    const kept = () =>
      ctx.db.pool.query<{ expires_at: Date }>(
        'SELECT expires_at FROM page_form_tokens WHERE business_id = $1 ORDER BY expires_at',
        [t.business.id],
      );
    expect((await send('First')).status).toBe(303);
    expect((await kept()).rows).toHaveLength(1);
    clock += 25 * 60 * 60 * 1000;
    expect((await send('A day later')).status).toBe(303);
    const { rows } = await kept();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expires_at.getTime()).toBeGreaterThan(clock);
  });

  it('When a form is posted from another site or with no origin at all, then it is a 403 and nothing changes', async () => {
    const { t, qr, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const agent = page.request();
    const opened = await agent.get(url);
    now += 5_000;
    const form = { content: 'Forged', form_token: tokenIn(opened.text) };
    const forged = await agent.post(url).set('Origin', 'https://evil.example').type('form').send(form);
    expect(forged.status).toBe(403);
    expect(forged.type).toBe('text/html');
    const refererOnly = await agent.post(url).set('Referer', 'https://evil.example/x').type('form').send(form);
    expect(refererOnly.status).toBe(403);
    const bare = await agent.post(url).type('form').send(form);
    expect(bare.status).toBe(403);
    // PUBLIC_BASE_URL is set: a Host header naming another site does not make that site this one
    const hostNamed = await agent
      .post(url)
      .set('Host', 'evil.example')
      .set('Origin', 'http://evil.example')
      .type('form')
      .send(form);
    expect(hostNamed.status).toBe(403);
    const hostNamedJson = await agent
      .post(`/public/suggestions/${s.id}/vote`)
      .set('Host', 'evil.example')
      .set('Origin', 'http://evil.example')
      .send({ code: qr.code });
    expect(hostNamedJson.status).toBe(403);
    const vote = await agent
      .post(`${url}/votes/${s.id}`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ action: 'add' });
    expect(vote.status).toBe(403);
    const json = await agent
      .post(`/public/suggestions/${s.id}/vote`)
      .set('Origin', 'https://evil.example')
      .send({ code: qr.code });
    expect(json.status).toBe(403);
    const { rows } = await ctx.db.pool.query(
      'SELECT count(*)::int AS n, sum(upvote_count)::int AS votes FROM suggestions WHERE business_id = $1',
      [t.business.id],
    );
    expect(rows[0]).toEqual({ n: 1, votes: 0 });
  });

  it('When content and names are hostile markup, then the page shows them as text', async () => {
    const { url } = await scene();
    const agent = page.request();
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const res = await postForm(agent, url, { content: hostile, customer_name: '"><svg onload=alert(3)>' });
    expect(res.status).toBe(303);
    const shown = await agent.get(url);
    expect(shown.text).not.toContain('<script>alert');
    expect(shown.text).not.toContain('<img src=x');
    expect(shown.text).not.toContain('<svg');
    expect(shown.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(shown.text).toContain('by &quot;&gt;&lt;svg onload=alert(3)&gt;');
  });
});

describe('votes on the public page', () => {
  it('When two browsers vote with the forms and one takes it back, then the counts follow and each sees its own vote', async () => {
    const { t, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'More plants' });
    const first = page.request();
    const voted = await first.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    expect(voted.status).toBe(303);
    expect(voted.headers.location).toBe(`${url}?sort=trending&voted=${s.id}#s-${s.id}`);
    const cookie = String(voted.headers['set-cookie']);
    expect(cookie).toMatch(/^fb_voter=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const again = await first.get(url);
    expect(again.text).toContain('aria-pressed="true"');
    const second = page.request();
    await second.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    await second.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    const read = async () =>
      (await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read)).body.upvote_count;
    expect(await read()).toBe(2);
    await first.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'remove' });
    expect(await read()).toBe(1);
    expect((await first.get(url)).text).toContain('aria-pressed="false"');
    const votes = await ctx.request().get(`/api/v1/suggestions/${s.id}/votes`).set('X-API-Key', t.read);
    expect(votes.body.data).toEqual([expect.objectContaining({ voter_type: 'anonymous', email: null, name: null })]);
  });

  it('When a browser without JavaScript votes, then the page it comes back to offers to follow that suggestion, and a removal does not', async () => {
    const { t, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Oat milk' });
    const agent = page.request();
    const voted = await agent.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    const offered = await agent.get(voted.headers.location as string);
    const notice = /<section class="notice" role="status" id="voted">[\s\S]*?<\/section>/.exec(offered.text)?.[0] ?? '';
    expect(notice).toContain('Thanks for your vote');
    expect(notice).toContain('<blockquote class="content">Oat milk</blockquote>');
    expect(notice).toContain(`<form method="post" action="${url}/follow/${s.id}">`);
    const followed = await agent
      .post(`${url}/follow/${s.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ email: 'ann@example.com' });
    expect(followed.headers.location).toBe(`${url}?followed=1&sort=trending#s-${s.id}`);
    const taken = await agent
      .post(`${url}/votes/${s.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ action: 'remove' });
    expect(taken.headers.location).toBe(`${url}?sort=trending#s-${s.id}`);
    expect((await agent.get(taken.headers.location as string)).text).not.toContain('id="voted"');
  });

  it('When a suggestion is merged, then the page hides it and its link and stale forms lead to the target', async () => {
    const { t, url } = await scene();
    const target = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'More plants' });
    const source = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Plants please' });
    const hidden = await buildSuggestion(ctx.db, t.business.id, { content: 'Internal only' });
    const agent = page.request();
    expect((await agent.get(`${url}/s/${source.id}`)).headers.location).toBe(`${url}#s-${source.id}`);
    const merged = await ctx
      .request()
      .post(`/api/v1/suggestions/${target.id}/merge`)
      .set('X-API-Key', t.write)
      .send({ source_ids: [source.id] });
    expect(merged.status).toBe(200);

    const shown = await agent.get(url);
    expect(shown.text).toContain(`id="s-${target.id}"`);
    expect(shown.text).not.toContain(source.id);
    const link = await agent.get(`${url}/s/${source.id}`);
    expect(link.status).toBe(303);
    expect(link.headers.location).toBe(`${url}#s-${target.id}`);
    expect((await agent.get(`${url}/s/${hidden.id}`)).status).toBe(404);

    const stale = await agent
      .post(`${url}/votes/${source.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ action: 'add' });
    expect(stale.status).toBe(303);
    expect(stale.headers.location).toBe(`${url}#s-${target.id}`);
    const count = await ctx.request().get(`/api/v1/suggestions/${target.id}`).set('X-API-Key', t.read);
    expect(count.body.upvote_count).toBe(0);
  });

  it('When the page script votes through JSON, then it is 201, 200 when repeated, and a DELETE takes it back', async () => {
    const { t, qr } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const agent = page.request();
    const path = `/public/suggestions/${s.id}/vote`;
    const first = await agent.post(path).set('Origin', ORIGIN).send({ code: qr.code });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ suggestion_id: s.id, voted: true, upvote_count: 1 });
    const repeat = await agent.post(path).set('Origin', ORIGIN).send({ code: qr.code });
    expect(repeat.status).toBe(200);
    expect(repeat.body.upvote_count).toBe(1);
    const recorded = await ctx.db.pool.query(`SELECT type FROM activity WHERE entity_id = $1`, [s.id]);
    expect(recorded.rows).toEqual([{ type: 'suggestion.voted' }]);
    const list = await agent.get(`/public/suggestions?code=${qr.code}`);
    expect(list.body.data[0]).toMatchObject({ id: s.id, voted: true, upvote_count: 1 });
    const removed = await agent.delete(`${path}?code=${qr.code}`).set('Origin', ORIGIN);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ suggestion_id: s.id, voted: false, upvote_count: 0 });
  });

  it('When a page vote names a suggestion the page does not show, then it is a 404 and nothing is written', async () => {
    const { t, qr } = await scene();
    const internal = await buildSuggestion(ctx.db, t.business.id, { visibility: 'internal' });
    const awaiting = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', reviewState: 'pending' });
    const foreign = await buildSuggestion(ctx.db, { visibility: 'public' });
    for (const s of [internal, awaiting, foreign]) {
      const res = await page
        .request()
        .post(`/public/suggestions/${s.id}/vote`)
        .set('Origin', ORIGIN)
        .send({ code: qr.code });
      expect(res.status).toBe(404);
    }
    const ids = [internal.id, awaiting.id, foreign.id];
    const { rows } = await ctx.db.pool.query(
      `SELECT (SELECT count(*)::int FROM votes WHERE suggestion_id = ANY ($1::uuid[])) AS votes,
         (SELECT count(*)::int FROM activity WHERE entity_id = ANY ($1::uuid[])) AS activity,
         (SELECT count(*)::int FROM events WHERE type = 'suggestion.voted' AND data->'object'->>'id' = ANY ($1::text[])) AS events,
         (SELECT sum(upvote_count)::int FROM suggestions WHERE id = ANY ($1::uuid[])) AS counted`,
      [ids],
    );
    expect(rows[0]).toEqual({ votes: 0, activity: 0, events: 0, counted: 0 });
  });
});

describe('sorting and paging on the page', () => {
  it('When shown suggestions of every status interleave in time, some at the same instant, then the newest-first pages list them in one order, ties by id', async () => {
    const { t, qr } = await scene();
    const statuses = ['pending', 'reviewing', 'in_progress', 'completed'] as const;
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 26; i++) {
      const s = await buildSuggestion(ctx.db, t.business.id, {
        visibility: 'public',
        status: statuses[(i * 7) % 4],
        content: `Idea ${i}`,
      });
      // three at a time share an instant: their order is the id's
      await ctx.db.pool.query('UPDATE suggestions SET created_at = $2 WHERE id = $1', [
        s.id,
        new Date(base + Math.floor(i / 3) * 60_000),
      ]);
    }
    await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', status: 'rejected', content: 'Not shown' });
    await buildSuggestion(ctx.db, t.business.id, { visibility: 'internal', content: 'Not shown either' });
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `SELECT id FROM suggestions
       WHERE business_id = $1 AND visibility = 'public' AND status <> 'rejected'
       ORDER BY created_at DESC, id DESC`,
      [t.business.id],
    );
    const listed: string[] = [];
    for (const offset of [0, 20]) {
      const res = await page.request().get(`/public/suggestions?code=${qr.code}&sort=new&offset=${offset}`);
      expect(res.status, res.text).toBe(200);
      listed.push(...res.body.data.map((s: { id: string }) => s.id));
    }
    expect(listed).toEqual(rows.map((row) => row.id));
  });

  it('When there are 25 suggestions, then 20 show with "load more", and the next offset brings the other 5', async () => {
    const { t, qr, url } = await scene();
    for (let i = 0; i < 25; i++) {
      await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: `Idea ${i}` });
    }
    const res = await page.request().get(url);
    expect(res.text.match(/class="item"/g)).toHaveLength(20);
    expect(res.text).toContain('offset=20');
    const more = await page.request().get(`/public/suggestions?code=${qr.code}&offset=20`);
    expect(more.body).toMatchObject({ total: 25, limit: 20, offset: 20, next_offset: null });
    expect(more.body.data).toHaveLength(5);
    const html = await page.request().get(`${url}?offset=20`);
    expect(html.text.match(/class="item"/g)).toHaveLength(5);
  });

  it('When sorted by top, then the most voted come first; by new, the newest', async () => {
    const { t, qr } = await scene();
    const b = t.business.id;
    const old = await buildSuggestion(ctx.db, b, { visibility: 'public', content: 'old' });
    await ctx.db.pool.query(`UPDATE suggestions SET created_at = now() - interval '3 days' WHERE id = $1`, [old.id]);
    const fresh = await buildSuggestion(ctx.db, b, { visibility: 'public', content: 'fresh' });
    for (const voter of ['a', 'b', 'c']) {
      await ctx
        .request()
        .post(`/api/v1/suggestions/${old.id}/votes`)
        .set('X-API-Key', t.write)
        .send({ voter: { external_id: voter } });
    }
    const ids = async (sort: string) =>
      (await page.request().get(`/public/suggestions?code=${qr.code}&sort=${sort}`)).body.data.map(
        (s: { id: string }) => s.id,
      );
    expect(await ids('top')).toEqual([old.id, fresh.id]);
    expect(await ids('new')).toEqual([fresh.id, old.id]);
    // (3 + 1) / (72 + 2)^1.5 is far below (0 + 1) / 2^1.5: the fresh one trends.
    expect(await ids('trending')).toEqual([fresh.id, old.id]);
  });
});

describe('the page and the list cache', () => {
  it('When a shown suggestion is changed by hand in the database, then the next view shows the change, in every sort', async () => {
    const { t, url, qr } = await scene();
    const shown = await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk please', visibility: 'public' });
    const views = () =>
      Promise.all([
        page.request().get(url),
        page.request().get(`${url}?sort=top`),
        page.request().get(`/public/suggestions?code=${qr.code}&sort=new`).set('Accept', 'application/json'),
      ]);
    // Twice: the second views are answered from the cache.
    for (let i = 0; i < 2; i++) for (const res of await views()) expect(res.text).toContain('Oat milk please');
    // No route, no trigger of the application's own: only the business's change number moves.
    await ctx.db.pool.query(`UPDATE suggestions SET content = 'Soy milk please' WHERE id = $1`, [shown.id]);
    for (const res of await views()) {
      expect(res.text).toContain('Soy milk please');
      expect(res.text).not.toContain('Oat milk please');
    }
  });

  it('When the page is answered from the cache, then each view has a form token of its own that posts, and renames show at once', async () => {
    const { t, location, url } = await scene();
    await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk please', visibility: 'public' });
    const agent = page.request();
    const first = await agent.get(url);
    now += 1;
    const kept = await agent.get(url);
    expect(tokenIn(kept.text)).not.toBe(tokenIn(first.text));
    expect(kept.text.replace(tokenIn(kept.text), '')).toBe(first.text.replace(tokenIn(first.text), ''));
    now += 5_000;
    const posted = await agent
      .post(url)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ form_token: tokenIn(kept.text), website: '', content: 'Sent from a kept page' });
    expect(posted.status).toBe(303);
    expect((await agent.get(url)).text).toContain('Sent from a kept page');
    // Names are not rows the change number counts: the kept page is named by them instead.
    await ctx.db.pool.query(`UPDATE businesses SET name = 'Renamed & Co' WHERE id = $1`, [t.business.id]);
    await ctx.db.pool.query(`UPDATE locations SET name = 'Garden' WHERE id = $1`, [location.id]);
    const renamed = await agent.get(url);
    expect(renamed.text).toContain('Renamed &amp; Co');
    expect(renamed.text).toContain('Garden');
    expect(renamed.text).not.toContain('Terrace');
  });

  it('When a browser that voted opens a page others got from the cache, then it still sees its own vote, and they do not', async () => {
    const { t, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'More plants' });
    const voter = page.request();
    await voter.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    // Made and kept by visitors without votes, after the vote.
    for (let i = 0; i < 2; i++) expect((await page.request().get(url)).text).toContain('aria-pressed="false"');
    expect((await voter.get(url)).text).toContain('aria-pressed="true"');
    expect((await page.request().get(url)).text).not.toContain('aria-pressed="true"');
  });
});

describe('budgets per address on the page', () => {
  it('When an address spends its write budget, then the next post or vote is a 429 page or JSON with Retry-After', async () => {
    const limited = pageApp({ pageWriteLimit: 2 });
    const { t, qr, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const agent = limited.request();
    for (let i = 0; i < 2; i++) {
      const ok = await agent.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
      expect(ok.status).toBe(303);
    }
    const html = await agent.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    expect(html.status).toBe(429);
    expect(html.type).toBe('text/html');
    expect(Number(html.headers['retry-after'])).toBeGreaterThan(0);
    expect(html.text).toContain('Too many requests');
    const json = await agent.post(`/public/suggestions/${s.id}/vote`).set('Origin', ORIGIN).send({ code: qr.code });
    expect(json.status).toBe(429);
    expect(json.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect((await agent.get(url)).status).toBe(200);
  });

  it('When one address votes again and again dropping its cookie, then votes beyond its cap are refused and the count stops', async () => {
    const capped = pageApp({ pageVotesPerAddress: 3 });
    const { t, qr, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const other = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    // Every request from a new agent: a browser without the cookie of its last vote.
    const formVote = (id: string) =>
      capped.request().post(`${url}/votes/${id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    const jsonVote = (agent = capped.request()) =>
      agent.post(`/public/suggestions/${s.id}/vote`).set('Origin', ORIGIN).send({ code: qr.code });
    const voter = capped.request();
    expect((await jsonVote(voter)).status).toBe(201);
    // Not a new vote: it takes no place.
    expect((await jsonVote(voter)).status).toBe(200);
    expect((await formVote(s.id)).status).toBe(303);
    expect((await jsonVote()).status).toBe(201);

    const page = await formVote(s.id);
    expect(page.status).toBe(429);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('Vote not counted');
    expect(page.text).toContain('as many votes from your network as one network can give in a day');
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(23 * 60 * 60);
    const json = await jsonVote();
    expect(json.status).toBe(429);
    expect(json.body.error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfter: Number(json.headers['retry-after']),
    });
    expect(json.body.error.message).toContain('3 votes from this address');

    const count = async (id: string) =>
      (await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read)).body.upvote_count as number;
    expect(await count(s.id)).toBe(3);
    // The cap is per suggestion: the same address still votes for another one.
    expect((await formVote(other.id)).status).toBe(303);
    expect(await count(other.id)).toBe(1);
  });

  it('When an address spends its read budget, then the next page view is a 429', async () => {
    const limited = pageApp({ pageReadLimit: 2 });
    const { url } = await scene();
    const agent = limited.request();
    expect((await agent.get(url)).status).toBe(200);
    expect((await agent.get(url)).status).toBe(200);
    const refused = await agent.get(url);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('the page while the database cannot be reached', () => {
  it('When the database refuses connections, then the page and both its forms answer a 503 page with Retry-After, never JSON or a 500', async () => {
    const { t, qr, url } = await scene();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const agent = page.request();
    const opened = await agent.get(url);
    now += 5_000;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const query = vi.spyOn(ctx.db.pool, 'query').mockRejectedValue(refused);
    try {
      const form = { content: 'Sent during the outage', form_token: tokenIn(opened.text) };
      for (const res of [
        await agent.get(url),
        await agent.post(url).set('Origin', ORIGIN).type('form').send(form),
        await agent.post(`${url}/votes/${s.id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' }),
      ]) {
        expect(res.status, res.text).toBe(503);
        expect(res.type).toBe('text/html');
        expect(res.headers['retry-after']).toBe('1');
        expect(res.text).toContain('Back in a moment');
        expect(res.text).toContain('Please try again in 1 second.');
      }
      const json = await agent.get(`/public/suggestions?code=${qr.code}`).set('Accept', 'application/json');
      expect(json.status).toBe(503);
      expect(json.body).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    } finally {
      query.mockRestore();
    }
    const { rows } = await ctx.db.pool.query(
      'SELECT count(*)::int AS n, sum(upvote_count)::int AS votes FROM suggestions WHERE business_id = $1',
      [t.business.id],
    );
    expect(rows[0]).toEqual({ n: 1, votes: 0 });
  });

  it('When the service is still starting, then the page and its forms answer a 503 page with Retry-After', async () => {
    const { url } = await scene();
    const starting = checked(
      supertest.agent(
        createApp({
          db: ctx.db,
          logger: createLogger('silent'),
          isReady: () => false,
          config: { PUBLIC_BASE_URL: ORIGIN },
        }),
      ),
    );
    for (const res of [
      await starting.get(url),
      await starting.post(url).set('Origin', ORIGIN).type('form').send({ content: 'Early' }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.type).toBe('text/html');
      expect(res.headers['retry-after']).toBe('1');
      expect(res.text).toContain('Back in a moment');
    }
  });
});

describe('scans', () => {
  it('When a page is opened, then the scan is counted in memory, and after the flush the QR code and the analytics show it', async () => {
    const counted = pageApp();
    const { t, location, qr, url } = await scene();
    const agent = counted.request();
    for (let i = 0; i < 3; i++) expect((await agent.get(url)).status).toBe(200);
    const posted = await postForm(agent, url, { content: 'Lovely view' });
    expect(posted.status).toBe(303);
    const read = () => ctx.request().get(`/businesses/${t.business.id}/qr-codes/${qr.id}`).set('X-API-Key', t.read);
    // No write per view: nothing is stored until the batch is flushed.
    expect((await read()).body.scans_last_30_days).toBe(0);
    await counted.scans().flush();
    expect((await read()).body.scans_last_30_days).toBe(4);
    const overview = await ctx
      .request()
      .get(`/businesses/${t.business.id}/analytics/overview`)
      .set('X-API-Key', t.read);
    expect(overview.body.public_page).toEqual({
      last_30_days: {
        scans: 4,
        submissions: 1,
        by_location: [{ location_id: location.id, name: 'Terrace', scans: 4, submissions: 1 }],
      },
    });
  });

  it('When the page is asked for with HEAD, then it answers as a GET would and no scan is counted', async () => {
    const counted = pageApp();
    const { t, qr, url } = await scene();
    const agent = counted.request();
    for (let i = 0; i < 3; i++) {
      const head = await agent.head(url);
      expect(head.status).toBe(200);
      expect(head.type).toBe('text/html');
    }
    expect((await agent.get(url)).status).toBe(200);
    await counted.scans().flush();
    const code = await ctx.request().get(`/businesses/${t.business.id}/qr-codes/${qr.id}`).set('X-API-Key', t.read);
    expect(code.body.scans_last_30_days).toBe(1);
  });

  it('When a customer posts and votes on the page, then the activity credits the QR code, not the system', async () => {
    const { t, qr, url } = await scene();
    const agent = page.request();
    const posted = await postForm(agent, url, { content: 'Lovely view' });
    const id = new URL(posted.headers.location!, ORIGIN).searchParams.get('s')!;
    await agent.post(`${url}/votes/${id}`).set('Origin', ORIGIN).type('form').send({ action: 'add' });
    const overview = await ctx
      .request()
      .get(`/businesses/${t.business.id}/analytics/overview`)
      .set('X-API-Key', t.read);
    const byCustomer = { type: 'qr_code', qr_code_id: qr.id, user_id: null, api_key_id: null };
    const onSuggestion = (overview.body.recent_activity as { entity: { id: string } }[]).filter(
      (entry) => entry.entity.id === id,
    );
    expect(onSuggestion).toEqual([
      expect.objectContaining({ type: 'suggestion.voted', actor: expect.objectContaining(byCustomer) }),
      expect.objectContaining({ type: 'suggestion.created', actor: expect.objectContaining(byCustomer) }),
    ]);
  });
});

describe('around the page', () => {
  it('When the server root is opened, then it is a small landing page linking the reference and the document', async () => {
    const res = await page.request().get('/');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('href="/docs"');
    expect(res.text).toContain('href="/api/v1/openapi.json"');
  });

  it('When the stylesheet and script are fetched, then they come under a content hash, cached for a year', async () => {
    const { url } = await scene();
    const html = (await page.request().get(url)).text;
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/page\.[0-9a-f]{12}\.(?:css|js))"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const res = await page.request().get(asset);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });
});
