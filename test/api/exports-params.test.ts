import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

const exportOf = (resource: 'suggestions' | 'issues', key: string, query: Record<string, string>) =>
  ctx.request().get(`/api/v1/export/${resource}`).set('X-API-Key', key).query(query);

describe('export query parameters', () => {
  it.each([
    ['suggestions', 'format=xml', { format: 'xml' }, 'format'],
    ['suggestions', 'format=CSV (case matters)', { format: 'CSV' }, 'format'],
    ['suggestions', 'an empty format', { format: '' }, 'format'],
    ['suggestions', 'an issue status', { status: 'open' }, 'status'],
    ['suggestions', 'an unknown priority', { priority: 'urgent' }, 'priority'],
    ['suggestions', 'an unknown sentiment', { sentiment: 'angry' }, 'sentiment'],
    ['suggestions', 'a malformed since', { since: 'yesterday' }, 'since'],
    ['suggestions', 'a since without time zone', { since: '2026-01-01T10:00:00' }, 'since'],
    ['suggestions', 'an impossible until', { until: '2026-02-31' }, 'until'],
    ['suggestions', 'an until without time zone', { until: '2026-01-01T10:00:00' }, 'until'],
    ['suggestions', 'until before since', { since: '2026-02-02', until: '2026-02-01' }, 'until'],
    ['suggestions', 'page (exports are not paged)', { page: '2' }, 'page'],
    ['suggestions', 'limit', { limit: '10' }, 'limit'],
    ['suggestions', 'sort', { sort: 'priority' }, 'sort'],
    ['suggestions', 'q', { q: 'coffee' }, 'q'],
    ['suggestions', 'an unknown parameter', { colour: 'red' }, 'colour'],
    ['issues', 'sentiment (suggestions only)', { sentiment: 'positive' }, 'sentiment'],
    ['issues', 'a suggestion status', { status: 'pending' }, 'status'],
    ['issues', 'an unknown priority', { priority: 'urgent' }, 'priority'],
    ['issues', 'format=xlsx', { format: 'xlsx' }, 'format'],
    ['issues', 'a malformed until', { until: 'tomorrow' }, 'until'],
    ['issues', 'an unknown parameter', { assignee_id: 'x' }, 'assignee_id'],
  ] as const)(
    'When exporting %s with %s, then it is a 400 beginning "Query failed:"',
    async (resource, _label, query, field) => {
      const t = await buildTenant(ctx.db);
      const res = await exportOf(resource, t.read, query);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).toMatch(/^Query failed:/);
      expect(res.body.message).toContain(field);
    },
  );

  it('When format=csv comes with an invalid filter, then the error is JSON, not a CSV file', async () => {
    const t = await buildTenant(ctx.db);
    const res = await exportOf('suggestions', t.read, { format: 'csv', status: 'bogus' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['x-total-count']).toBeUndefined();
    expect(res.body.message).toMatch(/^Query failed: status/);
  });

  it('When a parameter is repeated, then it is a 400', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/export/issues?format=json&format=csv').set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed: format/);
  });

  it.each(['json', 'csv'])('When format=%s is given with every valid filter, then it is a 200', async (format) => {
    const t = await buildTenant(ctx.db);
    const all = { format, status: 'pending', priority: 'low', since: '2026-01-01', until: '2026-12-31T23:00:00+02:00' };
    expect((await exportOf('suggestions', t.read, { ...all, sentiment: 'neutral' })).status).toBe(200);
    expect((await exportOf('issues', t.read, { ...all, status: 'open' })).status).toBe(200);
  });
});
