import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';
import { SPEC_SUGGESTION_LIST_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();

type Item = Record<string, unknown> & { id: string; created_at: string };

async function seed(key: string, bodies: Record<string, unknown>[]): Promise<Item[]> {
  const created: Item[] = [];
  for (const body of bodies) {
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', key).send(body);
    expect(res.status).toBe(201);
    created.push(res.body as Item);
  }
  return created;
}

const list = (key: string, query: Record<string, string | number> = {}) =>
  ctx.request().get('/api/v1/suggestions').set('X-API-Key', key).query(query);

describe('GET /api/v1/suggestions', () => {
  it('When called without parameters, then the envelope is {data, total, page, limit} with list fields only, newest first', async () => {
    const t = await buildTenant(ctx.db);
    const created = await seed(t.write, [{ content: 'first' }, { content: 'second', customer_name: 'Bo' }]);
    const res = await list(t.read);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'total', 'page', 'limit']);
    expect(res.body).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['second', 'first']);
    expect(Object.keys(res.body.data[0])).toEqual(SPEC_SUGGESTION_LIST_FIELDS);
    expect(res.body.data[0]).not.toHaveProperty('is_anonymous');
    expect(res.body.data[1].id).toBe(created[0]!.id);
  });

  it("When another business has suggestions, then they never appear in this business's list", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await seed(other.write, [{ content: 'foreign' }]);
    await seed(t.write, [{ content: 'mine' }]);
    const res = await list(t.read);
    expect(res.body.total).toBe(1);
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['mine']);
  });

  it('When filtering by status, priority and sentiment, then only matching rows are listed and counted', async () => {
    const t = await buildTenant(ctx.db);
    await seed(t.write, [
      { content: 'I love it', status: 'reviewing', priority: 'high' },
      { content: 'I hate it', status: 'reviewing', priority: 'high' },
      { content: 'I love it too', status: 'pending', priority: 'high' },
      { content: 'Great work', status: 'reviewing', priority: 'low' },
    ]);
    const res = await list(t.read, { status: 'reviewing', priority: 'high', sentiment: 'positive' });
    expect(res.body.total).toBe(1);
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['I love it']);
    expect((await list(t.read, { status: 'reviewing' })).body.total).toBe(3);
    expect((await list(t.read, { sentiment: 'negative' })).body.total).toBe(1);
  });

  it('When since is a timestamp read back from an item, then only rows created strictly after it are listed', async () => {
    const t = await buildTenant(ctx.db);
    const [a, b, c] = await seed(t.write, [{ content: 'a' }, { content: 'b' }, { content: 'c' }]);
    await ctx.db.pool.query(
      `UPDATE suggestions SET created_at = CASE id WHEN $1::uuid THEN '2026-01-01T00:00:00.001Z'::timestamptz
         WHEN $2::uuid THEN '2026-01-01T00:00:00.002Z'::timestamptz ELSE '2026-01-01T00:00:00.003Z'::timestamptz END
       WHERE business_id = $4 AND id IN ($1, $2, $3)`,
      [a!.id, b!.id, c!.id, t.business.id],
    );
    const res = await list(t.read, { since: '2026-01-01T00:00:00.002Z' });
    expect(res.body.data.map((s: Item) => s.content)).toEqual(['c']);
    expect((await list(t.read, { since: '2026-01-01T01:00:00.001+01:00' })).body.total).toBe(2);
    expect((await list(t.read, { since: '2026-01-01' })).body.total).toBe(3);
    expect((await list(t.read, { since: '2026-01-02' })).body.total).toBe(0);
  });

  it('When paging through with a small limit, then pages neither repeat nor skip rows, even on equal timestamps', async () => {
    const t = await buildTenant(ctx.db);
    const created = await seed(
      t.write,
      Array.from({ length: 7 }, (_, i) => ({ content: `item ${i}` })),
    );
    // identical sort keys everywhere: only the id tie-breaker keeps pages stable
    await ctx.db.pool.query(`UPDATE suggestions SET created_at = '2026-02-02T00:00:00Z' WHERE business_id = $1`, [
      t.business.id,
    ]);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await list(t.read, { page, limit: 2 });
      expect(res.body).toMatchObject({ total: 7, page, limit: 2 });
      seen.push(...res.body.data.map((s: Item) => s.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(created.map((s) => s.id)));
  });

  it('When the page is past the end, then data is empty and total is still true', async () => {
    const t = await buildTenant(ctx.db);
    await seed(t.write, [{ content: 'only' }]);
    const res = await list(t.read, { page: 5, limit: 10 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], total: 1, page: 5, limit: 10 });
  });

  it('When sorting by priority, then the enum order applies: low < medium < high < critical', async () => {
    const t = await buildTenant(ctx.db);
    await seed(t.write, [
      { content: 'h', priority: 'high' },
      { content: 'l', priority: 'low' },
      { content: 'c', priority: 'critical' },
      { content: 'm', priority: 'medium' },
    ]);
    const asc = await list(t.read, { sort: 'priority', order: 'asc' });
    expect(asc.body.data.map((s: Item) => s.priority)).toEqual(['low', 'medium', 'high', 'critical']);
    const desc = await list(t.read, { sort: 'priority' });
    expect(desc.body.data.map((s: Item) => s.priority)).toEqual(['critical', 'high', 'medium', 'low']);
  });

  it.each(['created_at', 'updated_at', 'status', 'upvote_count', 'sentiment_score'])(
    'When sorting by %s in both orders, then the order is consistent and reversed',
    async (sort) => {
      const t = await buildTenant(ctx.db);
      await seed(t.write, [
        { content: 'I love it', status: 'completed' },
        { content: 'It is awful', status: 'pending' },
        { content: 'A door', status: 'rejected' },
      ]);
      const asc = (await list(t.read, { sort, order: 'asc' })).body.data.map((s: Item) => s.id);
      const desc = (await list(t.read, { sort, order: 'desc' })).body.data.map((s: Item) => s.id);
      expect(asc).toHaveLength(3);
      expect(desc).toEqual([...asc].reverse());
    },
  );

  it('When sorting by status ascending, then the spec order of statuses applies', async () => {
    const t = await buildTenant(ctx.db);
    await seed(t.write, [
      { content: 'x', status: 'rejected' },
      { content: 'y', status: 'pending' },
      { content: 'z', status: 'in_progress' },
    ]);
    const res = await list(t.read, { sort: 'status', order: 'asc' });
    expect(res.body.data.map((s: Item) => s.status)).toEqual(['pending', 'in_progress', 'rejected']);
  });

  it.each([
    ['page=0', { page: '0' }, 'page'],
    ['page=-1', { page: '-1' }, 'page'],
    ['page=abc', { page: 'abc' }, 'page'],
    ['page=1.5', { page: '1.5' }, 'page'],
    ['limit=0', { limit: '0' }, 'limit'],
    ['limit=101 (never clamped)', { limit: '101' }, 'limit'],
    ['limit=1e2', { limit: '1e2' }, 'limit'],
    ['an unknown sort', { sort: 'content' }, 'sort'],
    ['an unknown order', { order: 'up' }, 'order'],
    ['an unknown status', { status: 'done' }, 'status'],
    ['an unknown priority', { priority: 'urgent' }, 'priority'],
    ['an unknown sentiment', { sentiment: 'angry' }, 'sentiment'],
    ['a malformed since', { since: 'yesterday' }, 'since'],
    ['a since without time zone', { since: '2026-01-01T10:00:00' }, 'since'],
    ['an impossible date', { since: '2026-02-31' }, 'since'],
    ['an unknown parameter', { colour: 'red' }, 'colour'],
    ['offset (not this family)', { offset: '10' }, 'offset'],
  ])('When the query has %s, then it is a 400 beginning "Query failed:"', async (_label, query, field) => {
    const t = await buildTenant(ctx.db);
    const res = await list(t.read, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toMatch(/^Query failed:/);
    expect(res.body.message).toContain(field);
  });

  it('When a parameter is repeated, then it is a 400', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions?status=pending&status=rejected').set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed: status/);
  });

  it('When limit is 100 and page is large, then both bounds are accepted', async () => {
    const t = await buildTenant(ctx.db);
    const res = await list(t.read, { limit: 100, page: 100000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], page: 100000, limit: 100 });
  });
});
