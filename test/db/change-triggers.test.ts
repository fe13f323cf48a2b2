import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ListCache } from '../../src/cache/list-cache.js';
import type { Guard } from '../../src/http/route.js';
import { ROUTES } from '../../src/routes.js';
import { useTestApp } from '../support/app.js';
import { changeTriggerGaps, namesRead, readCatalog } from '../support/change-triggers.js';
import {
  buildChangelogEntry,
  buildIssue,
  buildLocation,
  buildQrCode,
  buildSuggestion,
  buildTeam,
} from '../support/factories.js';

/**
 * A cached list is served while the business's change number holds (docs/caching.md), so every table
 * it reads must move that number when its rows change: the tables are found from the SQL the lists
 * actually run, and their triggers from the catalog. Nothing here names a list or a table.
 */
const ctx = useTestApp();

/**
 * Pass-through spies on the list cache and on every query the app sends: the order of their calls
 * (shared by all spies) tells which statements ran between a cache miss and the filling of that entry.
 */
let spies: {
  get: MockInstance<ListCache['get']>;
  set: MockInstance<ListCache['set']>;
  query: MockInstance<(text: unknown) => unknown>;
};
beforeAll(() => {
  spies = {
    get: vi.spyOn(ListCache.prototype, 'get'),
    set: vi.spyOn(ListCache.prototype, 'set'),
    query: vi.spyOn(pg.Client.prototype, 'query'),
  };
});
afterAll(() => {
  for (const spy of Object.values(spies)) spy.mockRestore();
});

/** The statements each filled cache entry was made from: what the entry shows. */
function fills(): string[][] {
  const { get, set, query } = spies;
  const text = (arg: unknown) => (typeof arg === 'string' ? arg : (arg as { text?: string } | null)?.text);
  const steps = [
    ...get.mock.results.flatMap((result, i) =>
      result.type === 'return' && result.value === undefined
        ? [{ order: get.mock.invocationCallOrder[i]!, miss: true }]
        : [],
    ),
    ...set.mock.invocationCallOrder.map((order) => ({ order, fill: true })),
    ...query.mock.calls.map(([arg], i) => ({ order: query.mock.invocationCallOrder[i]!, sql: text(arg) })),
  ].sort((x, y) => x.order - y.order);
  const open: string[][] = [];
  const filled: string[][] = [];
  for (const step of steps) {
    if ('miss' in step) open.push([]);
    else if ('fill' in step) filled.push(open.pop() ?? []);
    // Reads only: a batched write the app flushes meanwhile (scan counts) is not a part of a list.
    else if (step.sql && /^\s*(SELECT|WITH)\b/i.test(step.sql))
      for (const statements of open) statements.push(step.sql);
  }
  return filled.filter((statements) => statements.length > 0);
}

/**
 * Every GET the route table declares, then the HTML feedback page and roadmap (pages, not in the route table),
 * each called once for a business of its own, so each of its lists is built, not served.
 */
async function callEveryRead(): Promise<void> {
  const t = await buildTeam(ctx.db);
  const suggestion = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
  const qr = await buildQrCode(ctx.db, t.business.id);
  const owner = `Bearer ${t.ownerToken}`;
  const hook = await ctx
    .request()
    .post(`/businesses/${t.business.id}/webhooks`)
    .set('Authorization', owner)
    .send({ url: 'https://hooks.example.com/feedback', events: ['*'] });
  /** The id for a path parameter, by the collection before it; an unknown one fails below, by name. */
  const ids: Record<string, string> = {
    businesses: t.business.id,
    suggestions: suggestion.id,
    issues: (await buildIssue(ctx.db, t.business.id)).id,
    locations: (await buildLocation(ctx.db, t.business.id)).id,
    'qr-codes': qr.id,
    webhooks: hook.body.id as string,
    changelog: (await buildChangelogEntry(ctx.db, t.business.id, { published: true })).id,
  };
  /** What a route's query needs besides its defaults. */
  const queries: Record<string, object> = {
    '/public/suggestions': { code: qr.code },
    '/public/suggestions/similar': { code: qr.code, q: 'oat milk' },
  };
  const unanswered: string[] = [];
  const credentials: Partial<Record<Guard, Record<string, string>>> = {
    api_key: { 'X-API-Key': t.write },
    business: { Authorization: owner },
    session: { Authorization: owner },
  };
  /** Reads that answer only before any business exists (the first run): they read no list. */
  const beforeFirstRun = new Set(['/auth/setup']);
  const reads = ROUTES.filter((route) => route.method === 'get' && !beforeFirstRun.has(route.path)).map((route) => ({
    path: route.path,
    header: credentials[route.guard],
  }));
  const pages = ['/f/:code', '/f/:code/roadmap'].map((path) => ({ path, header: undefined }));
  for (const read of [...reads, ...pages]) {
    const path = read.path.replace(/\/([^/]+)\/:\w+/g, (_m, collection: string) =>
      collection === 'f' ? `/f/${qr.code}` : `/${collection}/${ids[collection] ?? 'unknown'}`,
    );
    const res = await ctx
      .request()
      .get(path)
      .query(queries[read.path] ?? {})
      .set(read.header ?? {});
    if (res.status !== 200) unanswered.push(`GET ${read.path}: ${res.status}`);
  }
  expect(unanswered, 'each read must be answered, so that none of its lists is missed').toEqual([]);
}

describe('The change number', () => {
  it('When a table is read by a cached list, then its inserts, updates and deletes move the change number', async () => {
    await callEveryRead();
    const filled = fills();
    expect(filled.length, 'no list was cached: the trace found nothing').toBeGreaterThan(0);
    const catalog = await readCatalog(ctx.db.pool);
    const read = [...new Set(filled.flat().flatMap(namesRead))].filter((name) => catalog.tables.has(name)).sort();
    expect(changeTriggerGaps(catalog, read), `read by cached lists: ${read.join(', ')}`).toEqual([]);
  });
});
