import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOtherApps, useTestApp } from '../support/app.js';
import { buildIssue, buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';

/**
 * /api/v1 lists are answered from a cache of serialised responses while the business's change number
 * (migrations/0004_changes.sql) stays the same. Whatever writes the rows, through this instance,
 * another one or SQL by hand, the next list must show it: a cached answer is never stale.
 */
const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

type Tenant = Awaited<ReturnType<typeof buildTenant>>;
interface ListBody {
  data: { id: string; content?: string; status: string; title?: string }[];
  total: number;
}

/** Statements that read the list rows themselves (the key lookup carries the change number). */
function countListReads(table: 'suggestions' | 'issues') {
  const spy = vi.spyOn(ctx.db.pool, 'query');
  const pattern = new RegExp(`FROM ${table}\\s`);
  return () => spy.mock.calls.filter(([text]) => typeof text === 'string' && pattern.test(text)).length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function list(t: Tenant, path = '/api/v1/suggestions', request = ctx.request()) {
  const res = await request.get(path).set('X-API-Key', t.read);
  expect(res.status, res.text).toBe(200);
  return res.body as ListBody;
}

describe('Cached /api/v1 lists', () => {
  it('When the same list is asked again with nothing changed, then the same answer comes without reading the rows', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Cached one' });
    const first = await list(t, '/api/v1/suggestions?limit=5&sort=priority');
    const reads = countListReads('suggestions');
    const again = await list(t, '/api/v1/suggestions?limit=5&sort=priority');
    expect(again).toEqual(first);
    expect(reads()).toBe(0);
    const res = await ctx.request().get('/api/v1/suggestions?limit=5&sort=priority').set('X-API-Key', t.read);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('When suggestions are created, changed or deleted through the API or by hand, then the next list shows it', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Before' });
    expect((await list(t)).total).toBe(1);

    const created = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Through the API' });
    expect(created.status).toBe(201);
    let body = await list(t);
    expect(body.total).toBe(2);
    expect(body.data[0]!.id).toBe(created.body.id);

    await ctx
      .request()
      .patch(`/api/v1/suggestions/${created.body.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'completed' });
    expect((await list(t, '/api/v1/suggestions?status=completed')).total).toBe(1);
    expect((await list(t)).data[0]!.status).toBe('completed');

    await ctx.db.pool.query('UPDATE suggestions SET content = $2 WHERE business_id = $1 AND id = $3', [
      t.business.id,
      'Edited by hand',
      created.body.id,
    ]);
    expect((await list(t)).data[0]!.content).toBe('Edited by hand');

    await ctx.db.pool.query('DELETE FROM suggestions WHERE id = $1', [created.body.id]);
    body = await list(t);
    expect(body.total).toBe(1);
    expect(body.data.map((s) => s.content)).toEqual(['Before']);
  });

  it('When another instance writes, then this instance never serves its cached list', async () => {
    const t = await buildTenant(ctx.db);
    const other = otherApp({ limit: 100_000 });
    await buildSuggestion(ctx.db, t.business.id);
    expect((await list(t)).total).toBe(1);
    const res = await other
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Via the other instance' });
    expect(res.status).toBe(201);
    const body = await list(t);
    expect(body.total).toBe(2);
    expect(body.data[0]!.content).toBe('Via the other instance');
  });

  it('When an issue changes, then the cached issue list follows', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await buildIssue(ctx.db, t.business.id, { title: 'Broken door' });
    expect((await list(t, '/api/v1/issues')).data[0]!.status).toBe('open');
    const patched = await ctx
      .request()
      .patch(`/businesses/${t.business.id}/issues/${issue.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ status: 'resolved' });
    expect(patched.status, patched.text).toBe(200);
    expect((await list(t, '/api/v1/issues')).data[0]!.status).toBe('resolved');
  });

  it('When the business, the query or the resource differ, then no answer is shared', async () => {
    const [a, b] = [await buildTenant(ctx.db), await buildTenant(ctx.db)];
    await buildSuggestion(ctx.db, a.business.id, { content: 'A one' });
    await buildSuggestion(ctx.db, a.business.id, { content: 'A two' });
    await buildSuggestion(ctx.db, b.business.id, { content: 'B one' });
    expect((await list(a)).data.map((s) => s.content).sort()).toEqual(['A one', 'A two']);
    expect((await list(b)).data.map((s) => s.content)).toEqual(['B one']);
    expect((await list(a, '/api/v1/suggestions?limit=1')).data).toHaveLength(1);
    expect((await list(a, '/api/v1/suggestions?limit=1&page=2')).data).toHaveLength(1);
    expect((await list(a, '/api/v1/suggestions?q=two')).data.map((s) => s.content)).toEqual(['A two']);
    expect((await list(a, '/api/v1/issues')).total).toBe(0);
  });

  it('When LIST_CACHE_MB is 0, then every list reads the rows', async () => {
    const t = await buildTenant(ctx.db);
    const uncached = otherApp({ limit: 100_000, config: { LIST_CACHE_MB: 0 } });
    await list(t, '/api/v1/suggestions', uncached.request());
    const reads = countListReads('suggestions');
    await list(t, '/api/v1/suggestions', uncached.request());
    expect(reads()).toBe(1);
  });

  it('When creates and lists interleave concurrently, then each list is exact and the last one shows every create', async () => {
    const t = await buildTenant(ctx.db);
    const created: string[] = [];
    const writes = Array.from({ length: 15 }, async (_, i) => {
      const res = await ctx
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: `Concurrent ${i}` });
      expect(res.status).toBe(201);
      created.push(res.body.id as string);
    });
    const reads = Array.from({ length: 15 }, () => list(t, '/api/v1/suggestions?limit=100'));
    const [, answers] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    for (const body of answers) expect(body.data).toHaveLength(body.total);
    const final = await list(t, '/api/v1/suggestions?limit=100');
    expect(final.total).toBe(15);
    expect(final.data.map((s) => s.id).sort()).toEqual(created.sort());
  });
});
