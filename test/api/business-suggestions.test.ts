import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Item = Record<string, unknown> & { id: string };

const base = (t: Team) => `/businesses/${t.business.id}`;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

async function create(t: Team, body: Record<string, unknown>) {
  const res = await ctx
    .request()
    .post(`${base(t)}/suggestions`)
    .set(asOwner(t))
    .send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as Item;
}
const patch = (t: Team, id: string, body: object, headers = asOwner(t)) =>
  ctx
    .request()
    .patch(`${base(t)}/suggestions/${id}`)
    .set(headers)
    .send(body);

describe('/businesses/:id/suggestions', () => {
  it('When listed, then the envelope is {data, total, limit, offset} with the dashboard fields', async () => {
    const t = await buildTeam(ctx.db);
    for (const content of ['a', 'b', 'c']) await create(t, { content });
    const res = await ctx
      .request()
      .get(`${base(t)}/suggestions?limit=2&offset=1`)
      .set(asOwner(t));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'total', 'limit', 'offset']);
    expect(res.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['b', 'a']);
    expect(res.body.data[0]).toMatchObject({ visibility: 'internal', review_state: 'not_required', location_id: null });
    expect(res.body.data[0]).toHaveProperty('is_anonymous');
  });

  it('When filtering, sorting and searching, then status, priority, sentiment, sort, order and q all apply', async () => {
    const t = await buildTeam(ctx.db);
    await create(t, { content: 'I love the coffee', priority: 'low' });
    await create(t, { content: 'I love the cake', priority: 'high' });
    await create(t, { content: 'The coffee is awful', priority: 'critical' });
    const res = await ctx
      .request()
      .get(`${base(t)}/suggestions`)
      .query({ q: 'coffee', sentiment: 'positive', status: 'pending', sort: 'priority', order: 'asc' })
      .set(asOwner(t));
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['I love the coffee']);
    const byPriority = await ctx
      .request()
      .get(`${base(t)}/suggestions?sort=priority&order=desc&priority=critical`)
      .set(asOwner(t));
    expect(byPriority.body.total).toBe(1);
  });

  it.each([
    [{ page: '2' }, 'page'],
    [{ offset: '-1' }, 'offset'],
    [{ offset: '10000001' }, 'offset'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ sort: 'content' }, 'sort'],
    [{ status: 'open' }, 'status'],
    [{ sort: 'relevance' }, 'relevance'],
  ])('When the list query is %j, then it is a 400 naming it', async (query, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .get(`${base(t)}/suggestions`)
      .query(query)
      .set(asOwner(t));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed:/);
    expect(res.body.message).toContain(field);
  });

  it('When a user creates a suggestion, then it follows the /api/v1 rules and is recorded as from the dashboard', async () => {
    const t = await buildTeam(ctx.db);
    const created = await create(t, { content: '  Great terrace  ', customer_name: 'Ann' });
    expect(created).toMatchObject({
      content: 'Great terrace',
      status: 'pending',
      is_anonymous: false,
      sentiment: 'positive',
    });
    const { rows } = await ctx.db.pool.query('SELECT source FROM suggestions WHERE id = $1', [created.id]);
    expect(rows[0].source).toBe('dashboard');
    const bad = await ctx
      .request()
      .post(`${base(t)}/suggestions`)
      .set(asOwner(t))
      .send({ content: 'x'.repeat(2001) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('content');
  });

  it('When an internal suggestion is made public on a business requiring approval, then it waits for review until approved', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query('UPDATE businesses SET approval_required = true WHERE id = $1', [t.business.id]);
    const s = await create(t, { content: 'publish me' });
    const published = await patch(t, s.id, { visibility: 'public' });
    expect(published.body).toMatchObject({ visibility: 'public', review_state: 'pending' });
    const approved = await patch(t, s.id, { review: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.body.review_state).toBe('approved');
    const again = await patch(t, s.id, { review: 'reject' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
  });

  it('When a pending public suggestion is rejected, then it is rejected; hiding it needs no review', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query('UPDATE businesses SET approval_required = true WHERE id = $1', [t.business.id]);
    const s = await create(t, { content: 'public', visibility: 'public' });
    expect(s.review_state).toBe('pending');
    expect((await patch(t, s.id, { review: 'reject' })).body.review_state).toBe('rejected');
    expect((await patch(t, s.id, { visibility: 'internal' })).body).toMatchObject({
      visibility: 'internal',
      review_state: 'not_required',
    });
  });

  it('When a suggestion is made public on a business without approval, then it needs no review', async () => {
    const t = await buildTeam(ctx.db);
    const s = await create(t, { content: 'publish me' });
    expect((await patch(t, s.id, { visibility: 'public' })).body.review_state).toBe('not_required');
    expect((await patch(t, s.id, { review: 'approve' })).status).toBe(409);
  });

  it('When a member changes only the status, then it is allowed; with anything else it is a 403 and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    const s = await create(t, { content: 'x' });
    const member = { Authorization: `Bearer ${t.member.token}` };
    expect((await patch(t, s.id, { status: 'reviewing' }, member)).status).toBe(200);
    const denied = await patch(t, s.id, { status: 'completed', priority: 'high' }, member);
    expect(denied.status).toBe(403);
    const read = await ctx
      .request()
      .get(`${base(t)}/suggestions/${s.id}`)
      .set(asOwner(t));
    expect(read.body).toMatchObject({ status: 'reviewing', priority: 'medium' });
  });

  it.each([
    [{}, 'at least one'],
    [{ review: 'maybe' }, 'review'],
    [{ visibility: 'secret' }, 'visibility'],
    [{ content: 'edited' }, 'content'],
  ])('When the patch is %j, then it is a 400 naming the problem', async (body, text) => {
    const t = await buildTeam(ctx.db);
    const s = await create(t, { content: 'x' });
    const res = await patch(t, s.id, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
  });

  it("When another business's suggestion id is used under this business, then it is a 404", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await create(other, { content: 'theirs' });
    expect(
      (
        await ctx
          .request()
          .get(`${base(t)}/suggestions/${theirs.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(404);
    expect((await patch(t, theirs.id, { status: 'rejected' })).status).toBe(404);
  });

  it('When a user comments, then the comment is theirs and carries no API prefix', async () => {
    const t = await buildTeam(ctx.db);
    const s = await create(t, { content: 'x' });
    const res = await ctx
      .request()
      .post(`${base(t)}/suggestions/${s.id}/comments`)
      .set({ Authorization: `Bearer ${t.member.token}` })
      .send({ content: 'We will look' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ content: 'We will look', author_id: t.member.id, entity_type: 'suggestion' });
    const list = await ctx
      .request()
      .get(`${base(t)}/suggestions/${s.id}/comments?limit=10&offset=0`)
      .set(asOwner(t));
    expect(list.body).toMatchObject({ total: 1, limit: 10, offset: 0 });
  });
});
