import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
type Tenant = Awaited<ReturnType<typeof buildTenant>>;
type Item = Record<string, unknown> & { id: string };

async function suggest(t: Tenant, body: Record<string, unknown>) {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(body);
  expect(res.status).toBe(201);
  return res.body as Item;
}
const search = (t: Tenant, path: string, query: Record<string, string | number>) =>
  ctx.request().get(`/api/v1/${path}`).set('X-API-Key', t.read).query(query);

describe('full-text search on suggestions (q)', () => {
  it('When q is a word prefix, then content matching it is found ("cof" finds "coffee")', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'The coffee was cold' });
    await suggest(t, { content: 'Add more chairs' });
    const res = await search(t, 'suggestions', { q: 'cof' });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.data[0].content).toBe('The coffee was cold');
  });

  it('When q names the customer, then their suggestions are found', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'Nice place', customer_name: 'Margarethe Okonkwo' });
    await suggest(t, { content: 'Nice place too' });
    const res = await search(t, 'suggestions', { q: 'okonk' });
    expect(res.body.data.map((s: Item) => s.customer_name)).toEqual(['Margarethe Okonkwo']);
  });

  it('When q has several words, then every word must match', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'Cold coffee at the bar' });
    await suggest(t, { content: 'Cold beer at the bar' });
    const res = await search(t, 'suggestions', { q: 'cold coffee' });
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['Cold coffee at the bar']);
  });

  it('When q is combined with filters, sort and pages, then all of them apply', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'coffee one', priority: 'low' });
    await suggest(t, { content: 'coffee two', priority: 'high' });
    await suggest(t, { content: 'coffee three', priority: 'critical' });
    await suggest(t, { content: 'tea', priority: 'critical' });
    const filtered = await search(t, 'suggestions', { q: 'coffee', priority: 'critical' });
    expect(filtered.body.data.map((s: Item) => s.content)).toEqual(['coffee three']);
    const sorted = await search(t, 'suggestions', { q: 'coffee', sort: 'priority', order: 'asc', limit: 2, page: 2 });
    expect(sorted.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(sorted.body.data.map((s: Item) => s.content)).toEqual(['coffee three']);
  });

  it('When sort=relevance with q, then the better match ranks first', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'The terrace needs shade' });
    await suggest(t, { content: 'Terrace terrace terrace: more terrace seating on the terrace' });
    const res = await search(t, 'suggestions', { q: 'terrace', sort: 'relevance' });
    expect(res.body.data[0].content).toMatch(/^Terrace terrace/);
    const asc = await search(t, 'suggestions', { q: 'terrace', sort: 'relevance', order: 'asc' });
    expect(asc.body.data[0].content).toBe('The terrace needs shade');
  });

  it('When another business has matching suggestions, then the search never returns them', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await suggest(other, { content: 'coffee from elsewhere' });
    await suggest(t, { content: 'coffee here' });
    const res = await search(t, 'suggestions', { q: 'coffee' });
    expect(res.body.total).toBe(1);
    expect(res.body.data[0].content).toBe('coffee here');
  });

  it('When q carries SQL or tsquery syntax, then it is treated as words, never executed', async () => {
    const t = await buildTenant(ctx.db);
    await suggest(t, { content: 'please drop the table of suggestions' });
    const res = await search(t, 'suggestions', { q: "drop'); DROP TABLE suggestions; -- | !:*" });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect((await search(t, 'suggestions', {})).body.total).toBe(1);
  });

  it.each([
    [{ q: '' }, 'q'],
    [{ q: 'a'.repeat(201) }, 'q'],
    [{ q: '!!!' }, 'q'],
    [{ sort: 'relevance' }, 'relevance'],
  ])('When the query is %j, then it is a 400', async (query, text) => {
    const t = await buildTenant(ctx.db);
    const res = await search(t, 'suggestions', query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed:/);
    expect(res.body.message).toContain(text);
  });
});

describe('full-text search on issues (q)', () => {
  it('When q matches a title or description prefix, then those issues are found', async () => {
    const t = await buildTenant(ctx.db);
    await buildIssue(ctx.db, t.business.id, { title: 'Printer jammed', description: 'Paper stuck' });
    await buildIssue(ctx.db, t.business.id, { title: 'Wi-Fi down', description: 'The router blinks red' });
    expect((await search(t, 'issues', { q: 'print' })).body.data.map((i: Item) => i.title)).toEqual(['Printer jammed']);
    expect((await search(t, 'issues', { q: 'rout' })).body.data.map((i: Item) => i.title)).toEqual(['Wi-Fi down']);
  });

  it('When q is combined with a status filter and relevance sort, then both apply and tenancy holds', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await buildIssue(ctx.db, other.business.id, { title: 'Printer on fire', status: 'open' });
    await buildIssue(ctx.db, t.business.id, { title: 'Printer printer printer', status: 'open' });
    await buildIssue(ctx.db, t.business.id, { title: 'Printer', status: 'closed' });
    const res = await search(t, 'issues', { q: 'printer', status: 'open', sort: 'relevance' });
    expect(res.body.total).toBe(1);
    expect(res.body.data[0].title).toBe('Printer printer printer');
  });

  it.each([[{ q: '' }], [{ q: 'x'.repeat(201) }], [{ sort: 'relevance' }], [{ q: '***' }]])(
    'When the query is %j, then it is a 400',
    async (query) => {
      const t = await buildTenant(ctx.db);
      const res = await search(t, 'issues', query);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Query failed:/);
    },
  );
});
