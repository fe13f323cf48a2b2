import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../support/app.js';
import {
  buildIssue,
  buildIssues,
  buildSuggestion,
  buildSuggestions,
  buildTenant,
  removeBusiness,
} from '../support/factories.js';
import { SPEC_ISSUE_LIST_FIELDS, SPEC_SUGGESTION_LIST_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();

type Item = Record<string, unknown> & { id: string; created_at: string };

// an export also says which suggestion each is merged into (issue 33)
const SUGGESTION_FIELDS = [...SPEC_SUGGESTION_LIST_FIELDS, 'merged_into'];
const ISSUE_FIELDS = SPEC_ISSUE_LIST_FIELDS;

const exportOf = (resource: 'suggestions' | 'issues', key: string, query: Record<string, string> = {}) =>
  ctx.request().get(`/api/v1/export/${resource}`).set('X-API-Key', key).query(query);

const texts = (res: { body: { data: Item[] } }, field = 'content') => res.body.data.map((item) => item[field]);

/** Moves rows to known instants: `at[i]` is the created_at of `ids[i]`. */
async function createdAt(table: 'suggestions' | 'issues', businessId: string, ids: string[], at: string[]) {
  for (const [i, id] of ids.entries()) {
    await ctx.db.pool.query(`UPDATE ${table} SET created_at = $1 WHERE business_id = $2 AND id = $3`, [
      at[i],
      businessId,
      id,
    ]);
  }
}

describe('GET /api/v1/export/suggestions as JSON', () => {
  it('When called without parameters, then it is {data, total, truncated, exported_at} of list items, newest first', async () => {
    const t = await buildTenant(ctx.db);
    const before = Date.now();
    await buildSuggestions(ctx.db, t.business.id, 3);
    const res = await exportOf('suggestions', t.read);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers['x-export-truncated']).toBe('false');
    expect(Object.keys(res.body)).toEqual(['data', 'total', 'truncated', 'exported_at']);
    expect(res.body).toMatchObject({ total: 3, truncated: false });
    expect(Date.parse(res.body.exported_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.exported_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(texts(res)).toEqual(['bulk 3', 'bulk 2', 'bulk 1']);
    expect(Object.keys(res.body.data[0])).toEqual(SUGGESTION_FIELDS);
  });

  it('When an item is exported, then it is exactly what the list shows for it', async () => {
    const t = await buildTenant(ctx.db);
    await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'I love the terrace', customer_name: 'Ada', customer_email: 'ada@example.com' })
      .expect(201);
    const listed = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    const exported = await exportOf('suggestions', t.read);
    expect(exported.body.data).toEqual(listed.body.data.map((item: object) => ({ ...item, merged_into: null })));
  });

  it('When nothing matches, then data is empty and total is 0', async () => {
    const t = await buildTenant(ctx.db);
    const res = await exportOf('suggestions', t.read);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], total: 0, truncated: false });
  });

  it('When another business has suggestions, then they are never exported nor counted', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await buildSuggestions(ctx.db, other.business.id, 5, { text: 'foreign' });
    await buildSuggestions(ctx.db, t.business.id, 2, { text: 'mine' });
    const res = await exportOf('suggestions', t.read);
    expect(res.body.total).toBe(2);
    expect(res.headers['x-total-count']).toBe('2');
    expect(texts(res)).toEqual(['mine 2', 'mine 1']);
    const csv = await exportOf('suggestions', t.read, { format: 'csv' });
    expect(csv.text).not.toContain('foreign');
  });

  it('When a read key or a write key is used, then both may export (read scope)', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestions(ctx.db, t.business.id, 1);
    expect((await exportOf('suggestions', t.read)).status).toBe(200);
    expect((await exportOf('suggestions', t.write)).status).toBe(200);
    const bearer = await ctx.request().get('/api/v1/export/suggestions').set('Authorization', `Bearer ${t.read}`);
    expect(bearer.status).toBe(200);
  });

  it('When no key is given, then it is a 401 in the error shape', async () => {
    const res = await ctx.request().get('/api/v1/export/suggestions?format=csv');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('When filtering by status, priority and sentiment, then only matching rows are exported and counted', async () => {
    const t = await buildTenant(ctx.db);
    const rows: [string, 'pending' | 'reviewing', 'low' | 'high', 'positive' | 'negative'][] = [
      ['match', 'reviewing', 'high', 'positive'],
      ['wrong status', 'pending', 'high', 'positive'],
      ['wrong priority', 'reviewing', 'low', 'positive'],
      ['wrong sentiment', 'reviewing', 'high', 'negative'],
    ];
    for (const [content, status, priority, sentiment] of rows) {
      await buildSuggestion(ctx.db, t.business.id, { content, status, priority, sentiment });
    }
    const res = await exportOf('suggestions', t.read, { status: 'reviewing', priority: 'high', sentiment: 'positive' });
    expect(res.body.total).toBe(1);
    expect(texts(res)).toEqual(['match']);
    expect((await exportOf('suggestions', t.read, { status: 'reviewing' })).body.total).toBe(3);
    expect((await exportOf('suggestions', t.read, { priority: 'low' })).body.total).toBe(1);
    expect((await exportOf('suggestions', t.read, { sentiment: 'negative' })).body.total).toBe(1);
  });

  describe('since and until', () => {
    const AT = [
      '2026-01-31T23:59:59.999Z',
      '2026-02-01T00:00:00.000Z',
      '2026-02-01T12:00:00.000Z',
      '2026-02-01T23:59:59.999Z',
      '2026-02-02T00:00:00.000Z',
    ];

    async function seedTimeline() {
      const t = await buildTenant(ctx.db);
      const ids: string[] = [];
      for (const at of AT) ids.push((await buildSuggestion(ctx.db, t.business.id, { content: at })).id);
      await createdAt('suggestions', t.business.id, ids, AT);
      return t;
    }

    it.each([
      ['since is a date-time: created at or after it', { since: '2026-02-01T12:00:00.000Z' }, AT.slice(2)],
      ['since is a date: from that midnight UTC, inclusive', { since: '2026-02-01' }, AT.slice(1)],
      ['since has an offset', { since: '2026-02-01T13:00:00+01:00' }, AT.slice(2)],
      ['until is a date-time: created at or before it', { until: '2026-02-01T12:00:00.000Z' }, AT.slice(0, 3)],
      ['until is a date: to the end of that day UTC', { until: '2026-02-01' }, AT.slice(0, 4)],
      ['until has an offset', { until: '2026-02-01T11:00:00-01:00' }, AT.slice(0, 3)],
      ['since and until are one day', { since: '2026-02-01', until: '2026-02-01' }, AT.slice(1, 4)],
      ['since and until are the same instant', { since: AT[2]!, until: AT[2]! }, [AT[2]]],
    ])('When %s, then exactly those rows are exported', async (_label, query, expected) => {
      const t = await seedTimeline();
      const res = await exportOf('suggestions', t.read, query);
      expect(res.status).toBe(200);
      expect(texts(res)).toEqual([...expected].reverse());
      expect(res.body.total).toBe(expected.length);
    });
  });

  // Writes, exports and parses 10,000 rows: up to 12 s measured on a loaded 2-core machine.
  it('When more than 10,000 match, then 10,000 newest are sent and the truncation is signalled in headers and body', async () => {
    const t = await buildTenant(ctx.db);
    onTestFinished(() => removeBusiness(ctx.db, t.business.id));
    await buildSuggestions(ctx.db, t.business.id, 10_050);
    const res = await exportOf('suggestions', t.read);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('10050');
    expect(res.headers['x-export-truncated']).toBe('true');
    expect(res.body).toMatchObject({ total: 10_050, truncated: true });
    expect(res.body.data).toHaveLength(10_000);
    expect(res.body.data[0].content).toBe('bulk 10050');
    expect(res.body.data[9_999].content).toBe('bulk 51');
    expect(new Set(res.body.data.map((s: Item) => s.id)).size).toBe(10_000);

    const filtered = await exportOf('suggestions', t.read, { until: '2026-03-01T00:00:00.100Z' });
    expect(filtered.headers['x-export-truncated']).toBe('false');
    expect(filtered.body).toMatchObject({ total: 100, truncated: false });
    expect(filtered.body.data).toHaveLength(100);
  }, 45_000);

  // Writes, exports and parses 10,000 rows: up to 11 s measured on a loaded 2-core machine.
  it('When exactly 10,000 match, then all are sent and nothing is truncated', async () => {
    const t = await buildTenant(ctx.db);
    onTestFinished(() => removeBusiness(ctx.db, t.business.id));
    await buildSuggestions(ctx.db, t.business.id, 10_000);
    const res = await exportOf('suggestions', t.read);
    expect(res.headers['x-export-truncated']).toBe('false');
    expect(res.body).toMatchObject({ total: 10_000, truncated: false });
    expect(res.body.data).toHaveLength(10_000);
  }, 45_000);
});

describe('GET /api/v1/export/issues as JSON', () => {
  it('When called without parameters, then it holds issue list items, newest first', async () => {
    const t = await buildTenant(ctx.db);
    const older = await buildIssue(ctx.db, t.business.id, { title: 'older' });
    await buildIssue(ctx.db, t.business.id, { title: 'newer', status: 'resolved', customerName: 'Bo' });
    const res = await exportOf('issues', t.read);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, truncated: false });
    expect(texts(res, 'title')).toEqual(['newer', 'older']);
    expect(Object.keys(res.body.data[0])).toEqual(ISSUE_FIELDS);
    expect(res.body.data[0].resolved_at).toMatch(/Z$/);
    expect(res.body.data[1]).toMatchObject({ id: older.id, assignee_id: null, resolved_at: null });
    const listed = await ctx.request().get('/api/v1/issues').set('X-API-Key', t.read);
    expect(res.body.data).toEqual(listed.body.data);
  });

  it('When filtering by status, priority, since and until, then only matching issues are exported', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await buildIssue(ctx.db, other.business.id, { title: 'foreign', status: 'open', priority: 'high' });
    const a = await buildIssue(ctx.db, t.business.id, { title: 'a', status: 'open', priority: 'high' });
    const b = await buildIssue(ctx.db, t.business.id, { title: 'b', status: 'open', priority: 'high' });
    const c = await buildIssue(ctx.db, t.business.id, { title: 'c', status: 'closed', priority: 'high' });
    const d = await buildIssue(ctx.db, t.business.id, { title: 'd', status: 'open', priority: 'low' });
    await createdAt(
      'issues',
      t.business.id,
      [a.id, b.id, c.id, d.id],
      ['2026-05-01T10:00:00Z', '2026-05-02T10:00:00Z', '2026-05-02T11:00:00Z', '2026-05-02T12:00:00Z'],
    );
    const res = await exportOf('issues', t.read, { status: 'open', priority: 'high' });
    expect(texts(res, 'title')).toEqual(['b', 'a']);
    expect((await exportOf('issues', t.read, { since: '2026-05-02' })).body.total).toBe(3);
    expect(texts(await exportOf('issues', t.read, { until: '2026-05-01' }), 'title')).toEqual(['a']);
    const window = await exportOf('issues', t.read, { since: '2026-05-02T11:00:00Z', until: '2026-05-02T12:00:00Z' });
    expect(texts(window, 'title')).toEqual(['d', 'c']);
  });

  // Writes, exports and parses 10,000 rows: up to 11 s measured on a loaded 2-core machine.
  it('When more than 10,000 issues match, then the JSON and headers say it was truncated', async () => {
    const t = await buildTenant(ctx.db);
    onTestFinished(() => removeBusiness(ctx.db, t.business.id));
    await buildIssues(ctx.db, t.business.id, 10_050);
    const res = await exportOf('issues', t.read);
    expect(res.headers['x-total-count']).toBe('10050');
    expect(res.headers['x-export-truncated']).toBe('true');
    expect(res.body).toMatchObject({ total: 10_050, truncated: true });
    expect(res.body.data).toHaveLength(10_000);
    expect(res.body.data[0].title).toBe('bulk 10050');
  }, 45_000);
});
