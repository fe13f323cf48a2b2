import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters, type RateLimiters } from '../../src/http/rate-limit.js';
import { ScanCounter } from '../../src/public-page/scan-counter.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { buildBusiness, buildQrCode, buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
const ORIGIN = 'http://feedback.test';
const limiters: RateLimiters[] = [];
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
});

/** An app of its own on the file's database (the page's origin set, its read budget as given). */
function pageApp(pageReadLimit = 100_000) {
  let made: ReturnType<typeof createApp> | undefined;
  const make = () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 100_000, pageWriteLimit: 100_000, pageReadLimit, logger });
    limiters.push(rateLimiters);
    return createApp({
      db: ctx.db,
      logger,
      rateLimiters,
      config: { PUBLIC_BASE_URL: ORIGIN },
      publicPage: { scans: new ScanCounter(ctx.db.pool, logger, 0) },
    });
  };
  return { request: () => checked(supertest.agent((made ??= make()))) };
}
const page = pageApp();

type Shown = Parameters<typeof buildSuggestion>[1] & object;

/** A suggestion the page shows (public, no review), in `status`, with `votes` counted votes. */
async function shown(businessId: string, status: string, votes = 0, more: Partial<Shown> = {}) {
  const s = await buildSuggestion(ctx.db, businessId, { visibility: 'public', status, ...more } as Shown);
  if (votes > 0) await ctx.db.pool.query('UPDATE suggestions SET upvote_count = $2 WHERE id = $1', [s.id, votes]);
  return s;
}

const ids = (column: { data: { id: string }[] }) => column.data.map((item) => item.id);

describe('GET /api/v1/roadmap and /businesses/{id}/roadmap', () => {
  it('When a business has suggestions in every status, then each default column holds exactly what the page shows, by votes, with its exact total', async () => {
    const t = await buildTeam(ctx.db);
    const b = t.business.id;
    const reviewing = [await shown(b, 'reviewing', 3), await shown(b, 'reviewing', 9), await shown(b, 'reviewing', 5)];
    const doing = await shown(b, 'in_progress', 1);
    const done = await shown(b, 'completed', 2);
    // None of these is on the page, so none is on the roadmap.
    await buildSuggestion(ctx.db, b, { status: 'reviewing' }); // internal
    await shown(b, 'reviewing', 50, { reviewState: 'pending' }); // awaiting review
    await shown(b, 'pending', 40); // a status the roadmap does not show
    const merged = await shown(b, 'in_progress', 30);
    await ctx.db.pool.query('UPDATE suggestions SET merged_into = $2, merged_at = now() WHERE id = $1', [
      merged.id,
      doing.id,
    ]);
    const other = await buildBusiness(ctx.db);
    await shown(other.business.id, 'reviewing', 99);

    const asKey = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    const asMember = await ctx
      .request()
      .get(`/businesses/${b}/roadmap`)
      .set('Authorization', `Bearer ${t.member.token}`);
    for (const res of [asKey, asMember]) {
      expect(res.status).toBe(200);
      expect(
        res.body.columns.map((c: { status: string; title: string; total: number }) => [c.status, c.title, c.total]),
      ).toEqual([
        ['reviewing', 'Under review', 3],
        ['in_progress', 'In progress', 1],
        ['completed', 'Done', 1],
      ]);
      expect(ids(res.body.columns[0])).toEqual([reviewing[1]!.id, reviewing[2]!.id, reviewing[0]!.id]);
      expect(ids(res.body.columns[1])).toEqual([doing.id]);
      expect(ids(res.body.columns[2])).toEqual([done.id]);
    }
    // Items are list items (spec 4.2): the list's fields, no is_anonymous.
    const listed = await ctx.request().get(`/api/v1/suggestions?status=completed`).set('X-API-Key', t.read);
    expect(asKey.body.columns[2].data[0]).toEqual(listed.body.data[0]);
  });

  it('When a column holds more than 20, then it shows the 20 most voted and the exact total', async () => {
    const t = await buildTenant(ctx.db);
    const made = [];
    for (let i = 0; i < 23; i++) made.push(await shown(t.business.id, 'in_progress', i));
    const res = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    const column = res.body.columns[1];
    expect(column.total).toBe(23);
    expect(ids(column)).toEqual(
      made
        .slice(3)
        .reverse()
        .map((s) => s.id),
    );
  });

  it('When suggestions were completed more than 90 days before today, then completed leaves them out, totals too', async () => {
    const t = await buildTenant(ctx.db);
    const recent = await shown(t.business.id, 'completed', 1);
    const old = await shown(t.business.id, 'completed', 5);
    const edge = await shown(t.business.id, 'completed', 3);
    await ctx.db.pool.query(`UPDATE suggestions SET status_changed_at = now() - interval '200 days' WHERE id = $1`, [
      old.id,
    ]);
    // The first day of the 90: the start of today (UTC) less 90 days, counted in.
    await ctx.db.pool.query(
      `UPDATE suggestions SET status_changed_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '90 days' WHERE id = $1`,
      [edge.id],
    );
    const res = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    expect(res.body.columns[2].total).toBe(2);
    expect(ids(res.body.columns[2])).toEqual([edge.id, recent.id]);
  });

  it('When a suggestion changes status, then it moves column, the answer is not a stale cached one, and completed counts from the change', async () => {
    const t = await buildTenant(ctx.db);
    const s = await shown(t.business.id, 'reviewing');
    // Created and put in review long ago: its completion is what counts, not either of those.
    await ctx.db.pool.query(
      `UPDATE suggestions SET created_at = now() - interval '1 year', status_changed_at = now() - interval '1 year' WHERE id = $1`,
      [s.id],
    );
    expect((await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read)).body.columns[0].total).toBe(1);
    const patched = await ctx
      .request()
      .patch(`/api/v1/suggestions/${s.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'completed' });
    expect(patched.status).toBe(200);
    const res = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    expect(res.body.columns.map((c: { total: number }) => c.total)).toEqual([0, 0, 1]);
    // a change that leaves the status as it is, and a vote, do not move the stamp
    const { rows: before } = await ctx.db.pool.query('SELECT status_changed_at FROM suggestions WHERE id = $1', [s.id]);
    await ctx
      .request()
      .patch(`/api/v1/suggestions/${s.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'completed', priority: 'high' });
    await ctx
      .request()
      .post(`/api/v1/suggestions/${s.id}/votes`)
      .set('X-API-Key', t.write)
      .send({ voter: { external_id: 'v' } });
    const { rows: after } = await ctx.db.pool.query('SELECT status_changed_at FROM suggestions WHERE id = $1', [s.id]);
    expect(after[0].status_changed_at).toEqual(before[0].status_changed_at);
    expect(Date.now() - (before[0].status_changed_at as Date).getTime()).toBeLessThan(60 * 60 * 1000);
  });

  it('When the business sets its columns, then the roadmap shows them in that order, at once', async () => {
    const t = await buildTeam(ctx.db);
    const s = await shown(t.business.id, 'pending', 1);
    expect((await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read)).body.columns).toHaveLength(3);
    const set = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ roadmap_statuses: ['completed', 'pending'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ roadmap_enabled: true, roadmap_statuses: ['completed', 'pending'] });
    const res = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    expect(res.body.columns.map((c: { status: string }) => c.status)).toEqual(['completed', 'pending']);
    expect(ids(res.body.columns[1])).toEqual([s.id]);
  });

  it('When the roadmap is turned off, then both families and the page answer a 404, and on again it is back', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const owner = { Authorization: `Bearer ${t.ownerToken}` };
    expect((await page.request().get(`/f/${qr.code}/roadmap`)).status).toBe(200);
    const off = await ctx.request().patch(`/businesses/${t.business.id}`).set(owner).send({ roadmap_enabled: false });
    expect(off.body.roadmap_enabled).toBe(false);
    const v1 = await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read);
    expect(v1.status).toBe(404);
    expect(v1.body.message).toBe('Roadmap not found');
    expect((await ctx.request().get(`/businesses/${t.business.id}/roadmap`).set(owner)).status).toBe(404);
    const html = await page.request().get(`/f/${qr.code}/roadmap`).set('Accept', 'text/html');
    expect(html.status).toBe(404);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    // The feedback page no longer links to it.
    expect((await page.request().get(`/f/${qr.code}`)).text).not.toContain(`/f/${qr.code}/roadmap`);
    await ctx.request().patch(`/businesses/${t.business.id}`).set(owner).send({ roadmap_enabled: true });
    expect((await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read)).status).toBe(200);
    expect((await page.request().get(`/f/${qr.code}`)).text).toContain(`href="/f/${qr.code}/roadmap"`);
  });

  it.each([
    [{ roadmap_statuses: ['rejected'] }, 'roadmap_statuses'],
    [{ roadmap_statuses: [] }, 'roadmap_statuses'],
    [{ roadmap_statuses: ['reviewing', 'reviewing'] }, 'roadmap_statuses'],
    [{ roadmap_statuses: ['planned'] }, 'roadmap_statuses'],
    [{ roadmap_statuses: 'reviewing' }, 'roadmap_statuses'],
    [{ roadmap_enabled: 'no' }, 'roadmap_enabled'],
  ])('When the settings are %j, then it is a 400 naming the field and nothing changes', async (body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    const read = await ctx.request().get(`/businesses/${t.business.id}`).set('X-API-Key', t.read);
    expect(read.body).toMatchObject({
      roadmap_enabled: true,
      roadmap_statuses: ['reviewing', 'in_progress', 'completed'],
    });
  });

  it('When a member or a read key changes the roadmap settings, then it is refused', async () => {
    const t = await buildTeam(ctx.db);
    const body = { roadmap_enabled: false };
    const member = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set('Authorization', `Bearer ${t.member.token}`)
      .send(body);
    expect(member.status).toBe(403);
    const key = await ctx.request().patch(`/businesses/${t.business.id}`).set('X-API-Key', t.read).send(body);
    expect(key.status).toBe(403);
    expect((await ctx.request().get('/api/v1/roadmap').set('X-API-Key', t.read)).status).toBe(200);
  });
});

describe('the roadmap page, /f/{code}/roadmap', () => {
  it('When a visitor opens it, then it shows the columns with their totals and votes, linked from the feedback page', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await shown(t.business.id, 'in_progress', 7, { content: 'Oat milk <b>please</b>', customerName: 'Ana' });
    await buildSuggestion(ctx.db, t.business.id, { status: 'in_progress', content: 'Internal only' });
    const feedback = await page.request().get(`/f/${qr.code}`);
    expect(feedback.text).toContain(`href="/f/${qr.code}/roadmap"`);
    const res = await page.request().get(`/f/${qr.code}/roadmap`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Under review <span class="total">(0 suggestions)</span>');
    expect(res.text).toContain('In progress <span class="total">(1 suggestion)</span>');
    expect(res.text).toContain('Oat milk &lt;b&gt;please&lt;/b&gt;');
    expect(res.text).toContain('by Ana');
    expect(res.text).toContain(`action="/f/${qr.code}/votes/${s.id}"`);
    expect(res.text).not.toContain('Internal only');
  });

  it('When a visitor votes from the roadmap without JavaScript, then the vote counts and they come back to the roadmap, their vote shown', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await shown(t.business.id, 'reviewing', 0);
    const visitor = page.request();
    await visitor.get(`/f/${qr.code}/roadmap`);
    const voted = await visitor
      .post(`/f/${qr.code}/votes/${s.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ action: 'add', back: 'roadmap' });
    expect(voted.status).toBe(303);
    expect(voted.headers.location).toBe(`/f/${qr.code}/roadmap#s-${s.id}`);
    const after = await visitor.get(`/f/${qr.code}/roadmap`);
    expect(after.text).toMatch(
      /aria-pressed="true">\s*<span aria-hidden="true">▲<\/span>\s*<span class="count">1<\/span>/,
    );
    // Another visitor sees the count, not pressed.
    const other = await page.request().get(`/f/${qr.code}/roadmap`);
    expect(other.text).toMatch(
      /aria-pressed="false">\s*<span aria-hidden="true">▲<\/span>\s*<span class="count">1<\/span>/,
    );
  });

  it('When the code is unknown or inactive, then the roadmap page is a 404 or a 410 page', async () => {
    const t = await buildTenant(ctx.db);
    const inactive = await buildQrCode(ctx.db, t.business.id, { active: false });
    expect((await page.request().get('/f/nosuchcode/roadmap')).status).toBe(404);
    expect((await page.request().get(`/f/${inactive.code}/roadmap`)).status).toBe(410);
  });
});

describe('GET /public/suggestions/similar', () => {
  const similar = (query: Record<string, string>, app = page) =>
    app.request().get('/public/suggestions/similar').query(query).set('Accept', 'application/json');

  it('When a visitor types, then up to 5 of what the page shows come back, the most alike first, nothing else', async () => {
    const t = await buildTenant(ctx.db, { approvalRequired: true });
    const qr = await buildQrCode(ctx.db, t.business.id);
    const vegan = await shown(t.business.id, 'reviewing', 4, { content: 'Vegan food please' });
    await shown(t.business.id, 'pending', 0, { content: 'More payment options' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'Vegan cakes', status: 'pending' }); // internal
    await shown(t.business.id, 'pending', 0, { content: 'Vegan pastries', reviewState: 'pending' }); // awaiting review
    await shown(t.business.id, 'pending', 0, { content: 'Vegan menu', reviewState: 'approved' }); // approved: shown
    await shown(t.business.id, 'rejected', 0, { content: 'Vegan burgers' });
    const other = await buildTenant(ctx.db);
    await shown(other.business.id, 'pending', 0, { content: 'Vegan food please' });

    const res = await similar({ code: qr.code, q: 'More vegan options' });
    expect(res.status).toBe(200);
    // Both have every subject word typed (score 1): the closer spelling first.
    expect(res.body.data.map((s: { content: string }) => s.content)).toEqual(['Vegan menu', 'Vegan food please']);
    expect(res.body.data[1]).toEqual({
      id: vegan.id,
      content: 'Vegan food please',
      upvote_count: 4,
      status: 'reviewing',
    });
  });

  it('When many are alike, then 5 come back', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    for (let i = 0; i < 7; i++)
      await shown(t.business.id, 'pending', i, { content: `Oat milk for the flat whites ${i}` });
    const res = await similar({ code: qr.code, q: 'oat milk' });
    expect(res.body.data).toHaveLength(5);
  });

  it('When fewer than 5 have every word typed, then those having some are scored too, by the share of the shorter text', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    await shown(t.business.id, 'pending', 0, { content: 'Vegan food please, every day' }); // every word: 1
    await shown(t.business.id, 'pending', 0, { content: 'More vegan options' }); // its one word typed: 1
    await shown(t.business.id, 'pending', 0, { content: 'Vegan cakes and pastries' }); // one of two: 0.5
    await shown(t.business.id, 'pending', 0, { content: 'Warmer food in winter' }); // one of two: 0.5
    const res = await similar({ code: qr.code, q: 'Vegan food please' });
    // both score 1: the closer spelling first
    expect(res.body.data.map((s: { content: string }) => s.content)).toEqual([
      'Vegan food please, every day',
      'More vegan options',
    ]);
  });

  it('When 5 have every word typed, then those 5 are offered and none having only some is read', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    // Scores 1 with the closest spelling, but it has only some of the words: not read once 5 have all.
    await shown(t.business.id, 'pending', 9, { content: 'Vegan' });
    for (let i = 0; i < 5; i++)
      await shown(t.business.id, 'pending', i, { content: `Vegan food for the long winter days ${i}` });
    const res = await similar({ code: qr.code, q: 'Vegan food' });
    expect(res.body.data.map((s: { content: string }) => s.content).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `Vegan food for the long winter days ${i}`),
    );
  });

  it('When only the customer’s name has the typed word, then the suggestion is not taken as having it; quotes and backslashes are words like others', async () => {
    // the search keys hold the content's and the name's words (0076): the content's are checked
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    await shown(t.business.id, 'pending', 0, { content: 'Quieter music please', customerName: 'Vegan Smith' });
    const own = await shown(t.business.id, 'pending', 0, { content: "O'Brien's vegan café isn't open late \\ enough" });
    const res = await similar({ code: qr.code, q: "Vegan O'Brien's café \\'" });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([own.id]);
    const byName = await similar({ code: qr.code, q: 'Smith' });
    expect(byName.status).toBe(200);
    expect(byName.body.data).toEqual([]);
  });

  it('When a suggestion is merged, then only the one it is merged into is offered', async () => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const target = await shown(t.business.id, 'pending', 0, { content: 'Dogs on the terrace' });
    const source = await shown(t.business.id, 'pending', 0, { content: 'Dogs allowed on the terrace' });
    await ctx.db.pool.query('UPDATE suggestions SET merged_into = $2, merged_at = now() WHERE id = $1', [
      source.id,
      target.id,
    ]);
    const res = await similar({ code: qr.code, q: 'Dogs on the terrace please' });
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([target.id]);
  });

  it.each([
    [{ q: 'vegan' }, 'code'],
    [{ code: 'CODE', q: 'no' }, 'q'],
    [{ code: 'CODE', q: '      ' }, 'q'],
    [{ code: 'CODE', q: 'x'.repeat(2001) }, 'q'],
    [{ code: 'CODE' }, 'q'],
    [{ code: 'CODE', q: 'vegan', limit: '50' }, 'limit'],
    [{ code: 'bad code!', q: 'vegan' }, 'code'],
  ])('When the query is %j, then it is a 400 naming the field', async (query, field) => {
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const given = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'CODE' ? qr.code : v]));
    const res = await similar(given);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('When the code is unknown or inactive, then it is a 404 or a 410', async () => {
    const t = await buildTenant(ctx.db);
    const inactive = await buildQrCode(ctx.db, t.business.id, { active: false });
    expect((await similar({ code: 'nosuchcode', q: 'vegan' })).status).toBe(404);
    expect((await similar({ code: inactive.code, q: 'vegan' })).status).toBe(410);
  });

  it('When an address spends the page read budget, then the next similar is a 429, as its page views would be', async () => {
    const limited = pageApp(2);
    const t = await buildTenant(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    expect((await similar({ code: qr.code, q: 'vegan' }, limited)).status).toBe(200);
    expect((await limited.request().get(`/f/${qr.code}`)).status).toBe(200);
    const refused = await similar({ code: qr.code, q: 'vegan food' }, limited);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
