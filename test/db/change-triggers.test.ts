import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { changeNumberSql } from '../../src/cache/change.repository.js';
import { ListCache } from '../../src/cache/list-cache.js';
import type { Queryable } from '../../src/db/database.js';
import type { Guard } from '../../src/http/route.js';
import { ROUTES } from '../../src/routes.js';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildLocation, buildQrCode, buildSuggestion, buildTeam } from '../support/factories.js';

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

/** Names after FROM or JOIN that are not calls: tables, CTEs and columns alike, until the catalog sorts them. */
const namesRead = (sql: string) => [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]\w*)\b(?!\s*\()/gi)].map((m) => m[1]!);

/**
 * Every GET the route table declares, then the HTML feedback page (a page, not in the route table),
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
  };
  /** What a route's query needs besides its defaults. */
  const queries: Record<string, object> = { '/public/suggestions': { code: qr.code } };
  const unanswered: string[] = [];
  const credentials: Partial<Record<Guard, Record<string, string>>> = {
    api_key: { 'X-API-Key': t.write },
    business: { Authorization: owner },
    session: { Authorization: owner },
  };
  const reads = ROUTES.filter((route) => route.method === 'get').map((route) => ({
    path: route.path,
    header: credentials[route.guard],
  }));
  for (const read of [...reads, { path: '/f/:code', header: undefined }]) {
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

interface Catalog {
  tables: Set<string>;
  triggers: { table: string; event: string; statement: string }[];
  /** The tables each function writes, itself or through the functions it calls. */
  writes: Map<string, Set<string>>;
}

async function readCatalog(db: Queryable): Promise<Catalog> {
  const { rows: tableRows } = await db.query<{ name: string }>(/* sql */ `
    SELECT table_name AS name
    FROM information_schema.tables
    WHERE table_schema = current_schema()
      AND table_type = 'BASE TABLE'`);
  const { rows: functions } = await db.query<{ name: string; source: string }>(/* sql */ `
    SELECT proname AS name, prosrc AS source
    FROM pg_proc
    WHERE pronamespace = current_schema()::regnamespace`);
  const { rows: triggers } = await db.query<Catalog['triggers'][number]>(/* sql */ `
    SELECT event_object_table AS table, event_manipulation AS event, action_statement AS statement
    FROM information_schema.triggers
    WHERE trigger_schema = current_schema()`);
  const tables = new Set(tableRows.map((row) => row.name));
  const names = new Set(functions.map((f) => f.name));
  const writes = new Map<string, Set<string>>();
  const calls = new Map<string, string[]>();
  for (const f of functions) {
    const direct = [...f.source.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]\w*)/gi)];
    writes.set(f.name, new Set(direct.map((m) => m[1]!.toLowerCase()).filter((name) => tables.has(name))));
    const called = [...f.source.matchAll(/\b([a-z_]\w*)\s*\(/gi)].map((m) => m[1]!.toLowerCase());
    calls.set(
      f.name,
      called.filter((name) => names.has(name) && name !== f.name),
    );
  }
  // A trigger's function may write through a helper (count_changes calls apply_changes): as many
  // rounds as there are functions reach the end of any chain of calls.
  for (let round = 0; round < functions.length; round++) {
    for (const f of functions) {
      for (const callee of calls.get(f.name)!) for (const table of writes.get(callee)!) writes.get(f.name)!.add(table);
    }
  }
  return { tables, triggers, writes };
}

/** What is wrong with each table: the changes to it that do not move the change number. */
function changeTriggerGaps({ tables, triggers, writes }: Catalog, read: string[]): string[] {
  const writtenBy = (statement: string) =>
    writes.get(/EXECUTE (?:FUNCTION|PROCEDURE) (?:\w+\.)?(\w+)\(/.exec(statement)?.[1] ?? '') ?? new Set<string>();
  // The change number is read from these tables: a change trigger is one whose function writes them.
  const changeTables = namesRead(changeNumberSql('$1')).filter((name) => tables.has(name));
  expect(changeTables.length).toBeGreaterThan(0);
  const unchanged = (table: string) =>
    ['INSERT', 'UPDATE', 'DELETE'].filter(
      (event) =>
        !triggers.some(
          (trigger) =>
            trigger.table === table &&
            trigger.event === event &&
            changeTables.some((changes) => writtenBy(trigger.statement).has(changes)),
        ),
    );
  /** The tables whose triggers write `table` (the counters): it changes when they do. */
  const keptBy = (table: string) => [
    ...new Set(triggers.filter((t) => t.table !== table && writtenBy(t.statement).has(table)).map((t) => t.table)),
  ];
  return read.flatMap((table) => {
    const events = unchanged(table);
    if (events.length === 0) return [];
    const sources = keptBy(table);
    if (sources.length > 0 && sources.every((source) => unchanged(source).length === 0)) return [];
    return [`${table}: no change trigger on ${events.join(', ')}`];
  });
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
