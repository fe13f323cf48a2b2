import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildTenant } from '../support/factories.js';
import { COMMENT_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

async function suggestionOf(t: Tenant) {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'parent' });
  return res.body.id as string;
}
const issueOf = async (t: Tenant) => (await buildIssue(ctx.db, t.business.id)).id;

const parents = [
  ['suggestions', 'suggestion', suggestionOf],
  ['issues', 'issue', issueOf],
] as const;

describe.each(parents)('comments on %s', (path, entityType, makeParent) => {
  it('When a comment is posted, then it is 201 with the comment object, prefixed with the key name', async () => {
    const t = await buildTenant(ctx.db);
    const id = await makeParent(t);
    const res = await ctx
      .request()
      .post(`/api/v1/${path}/${id}/comments`)
      .set('X-API-Key', t.write)
      .send({ content: 'On it' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(COMMENT_FIELDS);
    expect(res.body).toMatchObject({
      entity_type: entityType,
      entity_id: id,
      content: '[via API: Zapier sync] On it',
      author_id: t.owner.id,
    });
    const { rows } = await ctx.db.pool.query(
      `SELECT type FROM activity WHERE entity_id = $1 AND type LIKE '%.commented'`,
      [id],
    );
    expect(rows).toEqual([{ type: `${entityType}.commented` }]);
  });

  it('When comments are listed, then they come oldest first in the page envelope, and order=desc reverses them', async () => {
    const t = await buildTenant(ctx.db);
    const id = await makeParent(t);
    for (const text of ['one', 'two', 'three']) {
      await ctx.request().post(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.write).send({ content: text });
      await sleep(2);
    }
    const res = await ctx.request().get(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.read);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'total', 'page', 'limit']);
    expect(res.body.total).toBe(3);
    expect(res.body.data.map((c: { content: string }) => c.content)).toEqual([
      '[via API: Zapier sync] one',
      '[via API: Zapier sync] two',
      '[via API: Zapier sync] three',
    ]);
    expect(Object.keys(res.body.data[0])).toEqual(COMMENT_FIELDS);
    const desc = await ctx
      .request()
      .get(`/api/v1/${path}/${id}/comments?order=desc&limit=2&page=1`)
      .set('X-API-Key', t.read);
    expect(desc.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(desc.body.data.map((c: { content: string }) => c.content)).toEqual([
      '[via API: Zapier sync] three',
      '[via API: Zapier sync] two',
    ]);
    const past = await ctx.request().get(`/api/v1/${path}/${id}/comments?page=3&limit=2`).set('X-API-Key', t.read);
    expect(past.body).toEqual({ data: [], total: 3, page: 3, limit: 2 });
  });

  it("When the parent is unknown or another business's, then listing and posting are 404s and leak nothing", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const foreign = await makeParent(other);
    await ctx
      .request()
      .post(`/api/v1/${path}/${foreign}/comments`)
      .set('X-API-Key', other.write)
      .send({ content: 'private' });
    for (const id of [foreign, '0190c7f0-0000-7000-8000-000000000000', 'bad-id']) {
      const get = await ctx.request().get(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.read);
      expect(get.status).toBe(404);
      expect(get.text).not.toContain('private');
      const post = await ctx
        .request()
        .post(`/api/v1/${path}/${id}/comments`)
        .set('X-API-Key', t.write)
        .send({ content: 'x' });
      expect(post.status).toBe(404);
    }
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM comments WHERE entity_id = $1', [foreign]);
    expect(rows[0].n).toBe(1);
  });

  it('When a read key posts a comment, then it is a 403; when it lists, then it is served', async () => {
    const t = await buildTenant(ctx.db);
    const id = await makeParent(t);
    expect(
      (await ctx.request().post(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.read).send({ content: 'x' }))
        .status,
    ).toBe(403);
    expect((await ctx.request().get(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.read)).status).toBe(200);
  });

  it.each([
    ['missing content', {}, 'content'],
    ['empty content', { content: '' }, 'content'],
    ['content over 5000 characters', { content: 'é'.repeat(5001) }, 'content'],
    ['an unknown field', { content: 'x', entity_type: 'issue' }, 'entity_type'],
  ])('When the comment body has %s, then it is a 400 naming the field', async (_label, body, field) => {
    const t = await buildTenant(ctx.db);
    const id = await makeParent(t);
    const res = await ctx.request().post(`/api/v1/${path}/${id}/comments`).set('X-API-Key', t.write).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ sort: 'content' }, 'sort'],
    [{ order: 'random' }, 'order'],
    [{ status: 'open' }, 'status'],
  ])('When the comment listing query is %j, then it is a 400 beginning "Query failed:"', async (query, field) => {
    const t = await buildTenant(ctx.db);
    const id = await makeParent(t);
    const res = await ctx.request().get(`/api/v1/${path}/${id}/comments`).query(query).set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed:/);
    expect(res.body.message).toContain(field);
  });
});
