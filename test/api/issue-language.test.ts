import { parse } from 'csv-parse/sync';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Issue = { id: string; title: string; language: string | null };

const base = (t: Team) => `/businesses/${t.business.id}`;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

const GERMAN = { title: 'Kaffeemaschine kaputt', description: 'Die Kaffeemaschine funktioniert schon wieder nicht.' };
const FRENCH = { title: 'Machine à café en panne', description: 'La machine à café ne marche plus depuis ce matin.' };

async function create(t: Team, body: object): Promise<Issue> {
  const res = await ctx
    .request()
    .post(`${base(t)}/issues`)
    .set(asOwner(t))
    .send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as Issue;
}

const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

describe('the language of an issue', () => {
  it('When an issue is written in German, then it is `de`, and lang=de finds it in both families, lang=fr does not', async () => {
    const t = await buildTeam(ctx.db);
    const german = await create(t, GERMAN);
    expect(german.language).toBe('de');
    const one = await ctx.request().get(`/api/v1/issues/${german.id}`).set('X-API-Key', t.read).expect(200);
    expect(one.body.language).toBe('de');
    const v1 = await ctx.request().get('/api/v1/issues?lang=de').set('X-API-Key', t.read).expect(200);
    expect(ids(v1.body)).toEqual([german.id]);
    expect(v1.body.data[0].language).toBe('de');
    const v1fr = await ctx.request().get('/api/v1/issues?lang=fr').set('X-API-Key', t.read).expect(200);
    expect(v1fr.body.data).toEqual([]);
    const family = await ctx
      .request()
      .get(`${base(t)}/issues?lang=de`)
      .set(asOwner(t))
      .expect(200);
    expect(ids(family.body)).toEqual([german.id]);
    const familyFr = await ctx
      .request()
      .get(`${base(t)}/issues?lang=fr`)
      .set(asOwner(t))
      .expect(200);
    expect(familyFr.body.data).toEqual([]);
  });

  it('When lang= is not a two-letter code, then the list answers 400 naming lang', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().get('/api/v1/issues?lang=german').set('X-API-Key', t.read).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('lang');
  });

  it('When an issue’s title and description are edited into French, then its language becomes `fr`', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, GERMAN);
    const res = await ctx
      .request()
      .patch(`${base(t)}/issues/${issue.id}`)
      .set(asOwner(t))
      .send(FRENCH);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ...FRENCH, language: 'fr' });
    const fr = await ctx.request().get('/api/v1/issues?lang=fr').set('X-API-Key', t.read).expect(200);
    expect(ids(fr.body)).toEqual([issue.id]);
  });

  it('When only the status changes, then the language stays', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, GERMAN);
    const res = await ctx
      .request()
      .patch(`${base(t)}/issues/${issue.id}`)
      .set(asOwner(t))
      .send({ status: 'in_progress' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.language).toBe('de');
  });

  it('When issues are imported by CSV, then each has its detected language', async () => {
    const t = await buildTeam(ctx.db);
    const csv = `title,description\r\n${GERMAN.title},${GERMAN.description}\r\n${FRENCH.title},${FRENCH.description}\r\n`;
    const res = await ctx
      .request()
      .post(`${base(t)}/imports`)
      .set('X-API-Key', t.write)
      .set('Content-Type', 'text/csv')
      .query({ kind: 'issues' })
      .send(csv);
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(2);
    const list = await ctx.request().get('/api/v1/issues').set('X-API-Key', t.read).expect(200);
    const byTitle = Object.fromEntries(list.body.data.map((item: Issue) => [item.title, item.language]));
    expect(byTitle).toEqual({ [GERMAN.title]: 'de', [FRENCH.title]: 'fr' });
  });

  it('When issues are exported as JSON and CSV, then each record carries its language, and lang= filters', async () => {
    const t = await buildTeam(ctx.db);
    const german = await create(t, GERMAN);
    await create(t, FRENCH);
    const json = await ctx.request().get('/api/v1/export/issues?lang=de').set('X-API-Key', t.read).expect(200);
    const records = json.body.data as Issue[];
    expect(records.map((r) => [r.id, r.language])).toEqual([[german.id, 'de']]);
    const csv = await ctx.request().get('/api/v1/export/issues?format=csv').set('X-API-Key', t.read).expect(200);
    const rows = parse<Record<string, string>>(csv.text.replace(/^\uFEFF/, ''), { columns: true });
    expect(rows.map((r) => r.language).sort()).toEqual(['de', 'fr']);
  });
});

describe('analytics: suggestions no lexicon scored', () => {
  it('When an Italian suggestion (no lexicon) is among the feedback, then the overview counts it as not scored, not neutral', async () => {
    const t = await buildTeam(ctx.db);
    const post = (content: string) =>
      ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content }).expect(201);
    const italian = await post('Il caffè era freddo e il servizio davvero terribile, purtroppo.');
    expect(italian.body).toMatchObject({ language: 'it', sentiment: 'neutral', sentiment_lexicon: null });
    const neutral = await post('The menu lists the opening hours.');
    expect(neutral.body).toMatchObject({ sentiment: 'neutral', sentiment_lexicon: 'en' });
    await post('Das Essen war kalt und der Service schrecklich langsam.');
    const res = await ctx
      .request()
      .get(`${base(t)}/analytics/overview`)
      .set(asOwner(t))
      .expect(200);
    expect(Object.keys(res.body.sentiment).sort()).toEqual(['negative', 'neutral', 'positive']);
    expect(res.body.sentiment).toEqual({
      positive: { count: 0, average_score: null },
      neutral: { count: 1, average_score: 0 },
      negative: { count: 1, average_score: expect.any(Number) },
    });
    expect(res.body.sentiment_unscored).toBe(1);
  });

  it('When the dashboard’s Analytics page is opened, then the sentiment table has a "Not scored" row', async () => {
    const t = await buildTeam(ctx.db);
    await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Il caffè era freddo e il servizio davvero terribile, purtroppo.' })
      .expect(201);
    // a page, not an operation of the OpenAPI document: supertest itself, as the dashboard's tests do
    const page = await supertest(ctx.app)
      .get(`/app/b/${t.business.id}/analytics`)
      .set('Cookie', `fb_session=${t.ownerToken}`);
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    const section = page.text.slice(page.text.indexOf('id="chart-sentiment"'));
    const rows = [
      ...section.slice(0, section.indexOf('</tbody>')).matchAll(/<th scope="row">([^<]*)<\/th><td>(\d+)</g),
    ];
    expect(rows.map(([, label, n]) => [label, n])).toEqual([
      ['Positive', '0'],
      ['Neutral', '0'],
      ['Negative', '0'],
      ['Not scored', '1'],
    ]);
  });
});
