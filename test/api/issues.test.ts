import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildTenant } from '../support/factories.js';
import { SPEC_ISSUE_LIST_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();

const LIST_FIELDS = SPEC_ISSUE_LIST_FIELDS;
type Item = Record<string, unknown> & { id: string };

const list = (key: string, query: Record<string, string | number> = {}) =>
  ctx.request().get('/api/v1/issues').set('X-API-Key', key).query(query);

describe('GET /api/v1/issues', () => {
  it('When called without parameters, then the envelope holds list fields only, newest first, nulls where unset', async () => {
    const t = await buildTenant(ctx.db);
    const older = await buildIssue(ctx.db, t.business.id, { title: 'older' });
    await buildIssue(ctx.db, t.business.id, { title: 'newer', customerName: 'Ada' });
    const res = await list(t.read);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'total', 'page', 'limit']);
    expect(res.body).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(res.body.data.map((i: Item) => i.title)).toEqual(['newer', 'older']);
    expect(Object.keys(res.body.data[0])).toEqual(LIST_FIELDS);
    expect(res.body.data[1]).toMatchObject({ id: older.id, status: 'open', assignee_id: null, resolved_at: null });
  });

  it("When another business has issues, then they never appear in this business's list", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await buildIssue(ctx.db, other.business.id, { title: 'foreign' });
    await buildIssue(ctx.db, t.business.id, { title: 'mine' });
    const res = await list(t.read);
    expect(res.body.total).toBe(1);
    expect(res.body.data.map((i: Item) => i.title)).toEqual(['mine']);
  });

  it('When filtering by status and priority, then only matching issues are listed and counted', async () => {
    const t = await buildTenant(ctx.db);
    await buildIssue(ctx.db, t.business.id, { title: 'a', status: 'open', priority: 'high' });
    await buildIssue(ctx.db, t.business.id, { title: 'b', status: 'resolved', priority: 'high' });
    await buildIssue(ctx.db, t.business.id, { title: 'c', status: 'open', priority: 'low' });
    const res = await list(t.read, { status: 'open', priority: 'high' });
    expect(res.body.total).toBe(1);
    expect(res.body.data[0].title).toBe('a');
    const resolved = await list(t.read, { status: 'resolved' });
    expect(resolved.body.data[0].resolved_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('When since is given, then only issues created strictly after it are listed', async () => {
    const t = await buildTenant(ctx.db);
    const a = await buildIssue(ctx.db, t.business.id, { title: 'a' });
    const b = await buildIssue(ctx.db, t.business.id, { title: 'b' });
    await ctx.db.pool.query(
      `UPDATE issues SET created_at = CASE id WHEN $1::uuid THEN '2026-03-01T00:00:00.001Z'::timestamptz
         ELSE '2026-03-01T00:00:00.002Z'::timestamptz END WHERE business_id = $3 AND id IN ($1, $2)`,
      [a.id, b.id, t.business.id],
    );
    const res = await list(t.read, { since: '2026-03-01T00:00:00.001Z' });
    expect(res.body.data.map((i: Item) => i.title)).toEqual(['b']);
  });

  it('When paging with equal timestamps, then pages neither repeat nor skip, and past the end is empty', async () => {
    const t = await buildTenant(ctx.db);
    for (let i = 0; i < 5; i++) await buildIssue(ctx.db, t.business.id, { title: `i${i}` });
    await ctx.db.pool.query(`UPDATE issues SET created_at = '2026-04-04T00:00:00Z' WHERE business_id = $1`, [
      t.business.id,
    ]);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++)
      seen.push(...(await list(t.read, { page, limit: 2 })).body.data.map((i: Item) => i.id));
    expect(new Set(seen).size).toBe(5);
    expect((await list(t.read, { page: 9, limit: 2 })).body).toEqual({ data: [], total: 5, page: 9, limit: 2 });
  });

  it.each(['created_at', 'updated_at', 'priority', 'status', 'resolved_at'])(
    'When sorting by %s, then desc is the reverse of asc',
    async (sort) => {
      const t = await buildTenant(ctx.db);
      await buildIssue(ctx.db, t.business.id, { status: 'resolved', priority: 'critical' });
      await buildIssue(ctx.db, t.business.id, { status: 'open', priority: 'low' });
      await buildIssue(ctx.db, t.business.id, { status: 'closed', priority: 'medium' });
      const asc = (await list(t.read, { sort, order: 'asc' })).body.data.map((i: Item) => i.id);
      const desc = (await list(t.read, { sort, order: 'desc' })).body.data.map((i: Item) => i.id);
      expect(asc).toHaveLength(3);
      expect(desc).toEqual([...asc].reverse());
    },
  );

  it('When sorting by status ascending, then the spec order applies', async () => {
    const t = await buildTenant(ctx.db);
    for (const status of ['closed', 'open', 'resolved', 'assigned'] as const)
      await buildIssue(ctx.db, t.business.id, { status });
    const res = await list(t.read, { sort: 'status', order: 'asc' });
    expect(res.body.data.map((i: Item) => i.status)).toEqual(['open', 'assigned', 'resolved', 'closed']);
  });

  it.each([
    [{ status: 'pending' }, 'status'],
    [{ priority: 'urgent' }, 'priority'],
    [{ sort: 'title' }, 'sort'],
    [{ sort: 'upvote_count' }, 'sort'],
    [{ order: 'sideways' }, 'order'],
    [{ limit: '101' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ since: 'last week' }, 'since'],
    [{ sentiment: 'positive' }, 'sentiment'],
    [{ assignee_id: '0190c7f0-0000-7000-8000-000000000000' }, 'assignee_id'],
  ])('When the query is %j, then it is a 400 beginning "Query failed:"', async (query, field) => {
    const t = await buildTenant(ctx.db);
    const res = await list(t.read, query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed:/);
    expect(res.body.message).toContain(field);
  });
});

describe('GET /api/v1/issues/:id', () => {
  it('When the issue exists, then it is the full object including is_anonymous', async () => {
    const t = await buildTenant(ctx.db);
    const issue = await buildIssue(ctx.db, t.business.id, { customerEmail: 'c@example.com' });
    const res = await ctx.request().get(`/api/v1/issues/${issue.id}`).set('X-API-Key', t.read);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...LIST_FIELDS.slice(0, 10), 'is_anonymous', ...LIST_FIELDS.slice(10)]);
    expect(res.body).toMatchObject({ id: issue.id, is_anonymous: false, customer_email: 'c@example.com' });
  });

  it("When the id is unknown, malformed or another business's, then it is a 404", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const foreign = await buildIssue(ctx.db, other.business.id, { title: 'secret foreign title' });
    for (const id of [foreign.id, 'zzz', '0190c7f0-0000-7000-8000-000000000000']) {
      const res = await ctx.request().get(`/api/v1/issues/${id}`).set('X-API-Key', t.read);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('secret foreign title');
    }
  });
});

describe('issue creation in /api/v1', () => {
  it('When a client POSTs /api/v1/issues, then it is a 404 in the error shape and nothing is created', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().post('/api/v1/issues').set('X-API-Key', t.write).send({ title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await list(t.read)).body.total).toBe(0);
  });
});
