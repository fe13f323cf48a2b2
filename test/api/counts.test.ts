import { describe, expect, it } from 'vitest';
import { seedBusiness } from '../../src/seed/seed.service.js';
import { PRIORITIES, SENTIMENTS, SUGGESTION_STATUSES } from '../../src/shared/schemas.js';
import { useTestApp } from '../support/app.js';
import { countMismatches, countRows } from '../support/counts.js';
import { buildIssues, buildSuggestions, buildTeam, removeBusiness } from '../support/factories.js';

/**
 * Totals come from counters kept by triggers (migrations/0003_counts.sql). Whatever writes the rows,
 * alone or concurrently, every counter must equal count(*) over the rows it counts, and every list
 * total and analytics figure must equal what counting the rows gives.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Filter = Record<string, string>;

const asKey = (t: Team) => ({ 'X-API-Key': t.write });
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

async function createSuggestion(t: Team, body: object) {
  const res = await ctx.request().post('/api/v1/suggestions').set(asKey(t)).send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function patchSuggestion(t: Team, id: string, body: object, family: 'v1' | 'business' = 'v1') {
  const res =
    family === 'v1'
      ? await ctx.request().patch(`/api/v1/suggestions/${id}`).set(asKey(t)).send(body)
      : await ctx.request().patch(`/businesses/${t.business.id}/suggestions/${id}`).set(asOwner(t)).send(body);
  expect(res.status, res.text).toBe(200);
}

async function createIssue(t: Team, body: object) {
  const res = await ctx.request().post(`/businesses/${t.business.id}/issues`).set(asOwner(t)).send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function patchIssue(t: Team, id: string, body: object) {
  const res = await ctx.request().patch(`/businesses/${t.business.id}/issues/${id}`).set(asOwner(t)).send(body);
  expect(res.status, res.text).toBe(200);
}

/** `column = $n AND ...` for a filter given as API parameters (assignee_id is the column's own name). */
function rowCondition(filter: Filter): [string, string[]] {
  const entries = Object.entries(filter);
  if (entries.length === 0) return ['true', []];
  return [entries.map(([column], i) => `${column} = $${i + 2}`).join(' AND '), entries.map(([, value]) => value)];
}

const SUGGESTION_FILTERS: Filter[] = [
  {},
  ...SUGGESTION_STATUSES.map((status) => ({ status })),
  ...PRIORITIES.map((priority) => ({ priority })),
  ...SENTIMENTS.map((sentiment) => ({ sentiment })),
  { status: 'pending', priority: 'high' },
  { status: 'completed', sentiment: 'positive' },
  { status: 'in_progress', priority: 'critical', sentiment: 'negative' },
];

/** Every list total of both families equals count(*) for the same filter. */
async function expectSuggestionTotalsExact(t: Team) {
  for (const filter of SUGGESTION_FILTERS) {
    const expected = await countRows(ctx.db, 'suggestions', t.business.id, ...rowCondition(filter));
    const v1 = await ctx
      .request()
      .get('/api/v1/suggestions')
      .query({ ...filter, limit: 1 })
      .set(asKey(t));
    const business = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions`)
      .query({ ...filter, limit: 1 })
      .set(asOwner(t));
    expect([v1.body.total, business.body.total], JSON.stringify(filter)).toEqual([expected, expected]);
  }
}

async function expectIssueTotalsExact(t: Team, assignees: string[]) {
  const filters: Filter[] = [
    {},
    ...['open', 'assigned', 'in_progress', 'resolved', 'closed'].map((status) => ({ status })),
    ...PRIORITIES.map((priority) => ({ priority })),
    ...assignees.map((assignee_id) => ({ assignee_id })),
    ...assignees.map((assignee_id) => ({ assignee_id, status: 'assigned' })),
  ];
  for (const filter of filters) {
    const expected = await countRows(ctx.db, 'issues', t.business.id, ...rowCondition(filter));
    const business = await ctx
      .request()
      .get(`/businesses/${t.business.id}/issues`)
      .query({ ...filter, limit: 1 })
      .set(asOwner(t));
    expect(business.body.total, JSON.stringify(filter)).toBe(expected);
    if (filter.assignee_id) continue; // not a filter of /api/v1/issues
    const v1 = await ctx
      .request()
      .get('/api/v1/issues')
      .query({ ...filter, limit: 1 })
      .set(asKey(t));
    expect(v1.body.total, JSON.stringify(filter)).toBe(expected);
  }
}

describe('exact totals from counters', () => {
  // About 120 requests and two rounds of count(*) per filter: up to 11 s measured on a loaded 2-core machine.
  it('When suggestions are created, re-prioritised, moved between statuses, published and reviewed, then every total stays exact', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query('UPDATE businesses SET approval_required = true WHERE id = $1', [t.business.id]);
    const contents = ['I love the coffee', 'Terrible, awful service', 'Add a door', 'Great cake, wonderful staff'];
    const created = [];
    for (let i = 0; i < 12; i++) {
      created.push(
        await createSuggestion(t, {
          content: contents[i % 4],
          status: SUGGESTION_STATUSES[i % 5],
          priority: PRIORITIES[i % 4],
          visibility: i % 3 === 0 ? 'public' : 'internal',
        }),
      );
    }
    expect(await countMismatches(ctx.db, t.business.id)).toEqual([]);
    await expectSuggestionTotalsExact(t);

    for (const [i, s] of created.entries()) {
      await patchSuggestion(t, s.id, {
        status: SUGGESTION_STATUSES[(i + 2) % 5],
        ...(i % 2 ? { priority: 'critical' } : {}),
      });
    }
    await patchSuggestion(t, created[0]!.id, { review: 'approve' }, 'business');
    await patchSuggestion(t, created[3]!.id, { review: 'reject', status: 'rejected' }, 'business');
    await patchSuggestion(t, created[1]!.id, { visibility: 'public' }, 'business');
    await patchSuggestion(t, created[1]!.id, { visibility: 'internal', priority: 'low' }, 'business');
    await patchSuggestion(t, created[2]!.id, { status: SUGGESTION_STATUSES[(2 + 2) % 5] }); // a change to the same value
    expect(await countMismatches(ctx.db, t.business.id)).toEqual([]);
    await expectSuggestionTotalsExact(t);
  }, 30_000);

  it('When issues are created, assigned, unassigned, resolved, closed and reopened, then every total stays exact', async () => {
    const t = await buildTeam(ctx.db);
    const issues = [];
    for (let i = 0; i < 8; i++) {
      issues.push(
        await createIssue(t, {
          title: `Issue ${i}`,
          priority: PRIORITIES[i % 4],
          ...(i % 2 ? { assignee_id: t.member.id } : {}),
        }),
      );
    }
    await patchIssue(t, issues[0]!.id, { assignee_id: t.admin.id });
    await patchIssue(t, issues[1]!.id, { assignee_id: null });
    await patchIssue(t, issues[2]!.id, { status: 'resolved' });
    await patchIssue(t, issues[3]!.id, { status: 'closed', priority: 'critical' });
    await patchIssue(t, issues[3]!.id, { status: 'open' });
    await patchIssue(t, issues[4]!.id, { assignee_id: t.member.id, status: 'in_progress' });
    await patchIssue(t, issues[5]!.id, { assignee_id: t.admin.id });
    expect(await countMismatches(ctx.db, t.business.id)).toEqual([]);
    await expectIssueTotalsExact(t, [t.member.id, t.admin.id]);
  });

  // Writes and recounts about 5,000 rows three times over: up to 17 s measured on a loaded 2-core machine.
  it('When rows arrive in bulk (one statement, the seed command) and are deleted or re-dated by SQL, then counters, totals and analytics stay exact', async () => {
    const t = await buildTeam(ctx.db);
    const id = t.business.id;
    await buildSuggestions(ctx.db, id, 1500);
    await buildIssues(ctx.db, id, 300);
    await seedBusiness(ctx.db.pool, id, { suggestions: 3000, issues: 400, comments: 100 });
    expect(await countMismatches(ctx.db, id)).toEqual([]);
    await expectSuggestionTotalsExact(t);

    await ctx.db.pool.query(`DELETE FROM suggestions WHERE business_id = $1 AND status = 'rejected'`, [id]);
    await ctx.db.pool.query(
      `UPDATE suggestions SET created_at = created_at - interval '3 days 7 hours' WHERE business_id = $1 AND priority = 'low'`,
      [id],
    );
    await ctx.db.pool.query(`DELETE FROM issues WHERE business_id = $1 AND status = 'closed'`, [id]);
    expect(await countMismatches(ctx.db, id)).toEqual([]);
    await expectSuggestionTotalsExact(t);
    await expectIssueTotalsExact(t, []);

    const windowStart = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [last7, last30] = [windowStart(7), windowStart(30)];
    const res = await ctx.request().get(`/businesses/${id}/analytics/overview`).set(asOwner(t));
    const { rows: sentiments } = await ctx.db.pool.query<{ sentiment: string; count: number; average: number }>(
      `SELECT sentiment::text, count(*) AS count, round(avg(sentiment_score)::numeric, 4) AS average
       FROM suggestions WHERE business_id = $1 GROUP BY sentiment`,
      [id],
    );
    for (const row of sentiments) {
      expect(res.body.sentiment[row.sentiment]).toEqual({ count: row.count, average_score: row.average });
    }
    for (const status of SUGGESTION_STATUSES) {
      expect(res.body.suggestions.by_status[status]).toBe(
        await countRows(ctx.db, 'suggestions', id, 'status = $2', [status]),
      );
    }
    expect(res.body.suggestions.total).toBe(await countRows(ctx.db, 'suggestions', id));
    expect(res.body.issues.total).toBe(await countRows(ctx.db, 'issues', id));
    expect(res.body.created.last_7_days.suggestions).toBe(
      await countRows(ctx.db, 'suggestions', id, 'created_at >= $2', [last7]),
    );
    expect(res.body.created.last_30_days.issues).toBe(
      await countRows(ctx.db, 'issues', id, 'created_at >= $2', [last30]),
    );

    await removeBusiness(ctx.db, id);
    const { rows } = await ctx.db.pool.query(
      `SELECT (SELECT count(*) FROM suggestion_counts WHERE business_id = $1)
            + (SELECT count(*) FROM issue_counts WHERE business_id = $1)
            + (SELECT count(*) FROM created_counts WHERE business_id = $1) AS n`,
      [id],
    );
    expect(rows[0].n).toBe(0);
  }, 60_000);

  // An update whose counted values, taken together, are those it started from moves no counter and
  // is skipped (migrations/0018_counter_plans.sql). Taken as a set rather than a multiset, two rows
  // made alike would look unchanged too: these statements tell the two apart.
  it('When one SQL statement makes rows trade their counted values, or makes two of them alike, then every counter stays exact', async () => {
    const t = await buildTeam(ctx.db);
    const id = t.business.id;
    const sql = (text: string, values: unknown[]) => ctx.db.pool.query(text, [id, ...values]);
    const a = await createSuggestion(t, { content: 'Add a door', status: 'pending', priority: 'high' });
    const b = await createSuggestion(t, { content: 'Add a window', status: 'completed', priority: 'high' });
    const c = await createSuggestion(t, { content: 'Add a roof', status: 'in_progress', priority: 'low' });
    const trade = /* sql */ `UPDATE suggestions
      SET (status, priority) = (SELECT o.status, o.priority FROM suggestions o WHERE o.id = CASE suggestions.id WHEN $2::uuid THEN $3::uuid ELSE $2::uuid END)
      WHERE business_id = $1 AND id IN ($2, $3)`;
    for (const [statement, values] of [
      [trade, [a.id, b.id]], // pending and completed trade places: no counter moves
      [trade, [a.id, c.id]], // whole (status, priority) pairs trade places: no counter moves
      [`UPDATE suggestions SET status = 'in_progress' WHERE business_id = $1 AND id IN ($2, $3)`, [a.id, c.id]],
      [`UPDATE suggestions SET status = 'pending' WHERE business_id = $1 AND id IN ($2, $3)`, [a.id, b.id]],
    ] as const) {
      await sql(statement, [...values]);
      expect(await countMismatches(ctx.db, id), statement).toEqual([]);
    }
    await expectSuggestionTotalsExact(t);

    const assigned = await createIssue(t, { title: 'Door sticks', priority: 'high', assignee_id: t.member.id });
    const open = await createIssue(t, { title: 'Window leaks', priority: 'high' });
    await sql(`UPDATE issues SET status = 'open', assignee_id = NULL WHERE business_id = $1 AND id IN ($2, $3)`, [
      assigned.id,
      open.id,
    ]);
    expect(await countMismatches(ctx.db, id)).toEqual([]);
    await expectIssueTotalsExact(t, [t.member.id]);
  });

  it('When since falls mid-day, on a midnight, on a row or a millisecond away from one, then since totals are exact', async () => {
    const t = await buildTeam(ctx.db);
    const id = t.business.id;
    // rows 1 ms apart from 23:59:59.981 to 00:00:00.020: the 20th is exactly midnight
    await buildSuggestions(ctx.db, id, 40, { startAt: new Date('2026-03-01T23:59:59.980Z') });
    await buildSuggestions(ctx.db, id, 5, { startAt: new Date('2026-03-05T12:00:00.000Z') });
    await buildIssues(ctx.db, id, 40, { startAt: new Date('2026-03-01T23:59:59.980Z') });
    const bounds = [
      '2026-02-01',
      '2026-03-01',
      '2026-03-01T23:59:59.990Z',
      '2026-03-01T23:59:59.999Z',
      '2026-03-02',
      '2026-03-02T00:00:00.001Z',
      '2026-03-02T01:00:00+02:00',
      '2026-03-05T12:00:00.003Z',
      '2026-04-01',
    ];
    for (const since of bounds) {
      const at = new Date(since.length === 10 ? `${since}T00:00:00Z` : since);
      const list = await ctx.request().get('/api/v1/suggestions').query({ since, limit: 1 }).set(asKey(t));
      expect(list.body.total, since).toBe(await countRows(ctx.db, 'suggestions', id, 'created_at > $2', [at]));
      const issues = await ctx.request().get('/api/v1/issues').query({ since, limit: 1 }).set(asKey(t));
      expect(issues.body.total, since).toBe(await countRows(ctx.db, 'issues', id, 'created_at > $2', [at]));
      // the export's since is inclusive
      const exported = await ctx.request().get('/api/v1/export/suggestions').query({ since }).set(asKey(t));
      expect(exported.body.total, since).toBe(await countRows(ctx.db, 'suggestions', id, 'created_at >= $2', [at]));
    }
  });

  // 200 writes at once queue on the database, then every total is recounted: up to 25 s on a loaded 2-core machine.
  it('When 50 creates and 100 status and priority changes run concurrently, then no request fails and every counter stays exact', async () => {
    const t = await buildTeam(ctx.db);
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createSuggestion(t, { content: `Parallel idea ${i}`, priority: 'high' })),
    );
    // Opposite moves at once (pending -> completed on some rows, completed -> pending on others) take the
    // same counter rows from both directions: the ordered upserts must neither deadlock nor lose a count.
    const moves = (round: number) =>
      created.map((s, i) =>
        patchSuggestion(t, s.id, {
          status: (i + round) % 2 ? 'completed' : 'pending',
          priority: (i + round) % 3 ? 'low' : 'critical',
        }),
      );
    await Promise.all([
      ...moves(0),
      ...Array.from({ length: 50 }, (_, i) => createSuggestion(t, { content: `More ${i}`, status: 'completed' })),
    ]);
    await Promise.all(moves(1));
    expect(await countMismatches(ctx.db, t.business.id)).toEqual([]);
    await expectSuggestionTotalsExact(t);

    const issues = await Promise.all(Array.from({ length: 20 }, (_, i) => createIssue(t, { title: `Parallel ${i}` })));
    await Promise.all(
      issues.flatMap((issue, i) => [
        patchIssue(t, issue.id, { assignee_id: i % 2 ? t.member.id : t.admin.id }),
        patchIssue(t, issue.id, { priority: 'critical' }),
      ]),
    );
    expect(await countMismatches(ctx.db, t.business.id)).toEqual([]);
    await expectIssueTotalsExact(t, [t.member.id, t.admin.id]);
  }, 60_000);
});
