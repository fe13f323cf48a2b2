import { describe, expect, it } from 'vitest';
import { SEED_COMMANDS } from '../../src/cli/seed.command.js';
import { loadConfig } from '../../src/config/config.js';
import { seedBusiness } from '../../src/seed/seed.service.js';
import { analyzeSentiment } from '../../src/suggestions/sentiment.js';
import { PRIORITIES, SENTIMENTS, SUGGESTION_STATUSES, ISSUE_STATUSES } from '../../src/shared/schemas.js';
import { useTestApp } from '../support/app.js';
import { countMismatches } from '../support/counts.js';
import { buildLocation, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const DAY_MS = 86_400_000;

/** One row of the query's result. */
async function one<T>(sql: string, params: unknown[]): Promise<T> {
  const { rows } = await ctx.db.pool.query(sql, params);
  return rows[0] as T;
}

describe('seed', () => {
  it('When a business is seeded, then its rows are varied, consistent with the rules, counted, and the run is recorded once', async () => {
    const t = await buildTeam(ctx.db);
    const id = t.business.id;
    const location = await buildLocation(ctx.db, id);
    const progress: [number, number][] = [];
    const now = Date.now();
    const summary = await seedBusiness(
      ctx.db.pool,
      id,
      { suggestions: 2000, issues: 300, comments: 400 },
      { batchSize: 500, now, onProgress: (done, total) => progress.push([done, total]) },
    );
    expect(summary).toMatchObject({ business_id: id, suggestions: 2000, issues: 300, comments: 400, rows: 2700 });
    expect(progress.at(-1)).toEqual([2700, 2700]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));

    const kinds = await one<Record<string, string[]>>(
      `SELECT array_agg(DISTINCT status::text) AS statuses, array_agg(DISTINCT priority::text) AS priorities,
              array_agg(DISTINCT sentiment::text) AS sentiments, array_agg(DISTINCT visibility::text) AS visibilities,
              array_agg(DISTINCT source::text) AS sources
       FROM suggestions WHERE business_id = $1`,
      [id],
    );
    expect(kinds.statuses!.sort()).toEqual([...SUGGESTION_STATUSES].sort());
    expect(kinds.priorities!.sort()).toEqual([...PRIORITIES].sort());
    expect(kinds.sentiments!.sort()).toEqual([...SENTIMENTS].sort());
    expect(kinds.visibilities!.sort()).toEqual(['internal', 'public']);
    expect(kinds.sources).toEqual(['import']);

    // the stored sentiment is what the service computes for the text
    const { rows: texts } = await ctx.db.pool.query<{ content: string; sentiment: string; score: number }>(
      `SELECT DISTINCT content, sentiment::text, sentiment_score AS score FROM suggestions WHERE business_id = $1`,
      [id],
    );
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const expected = analyzeSentiment(text.content, 'en');
      expect({ sentiment: text.sentiment, score: text.score }, text.content).toEqual({
        sentiment: expected.sentiment,
        score: expected.score,
      });
    }

    const shape = await one<Record<string, number | boolean>>(
      `SELECT bool_and(is_anonymous = (customer_name IS NULL AND customer_email IS NULL)) AS anonymous_consistent,
              count(*) FILTER (WHERE is_anonymous) AS anonymous,
              count(*) FILTER (WHERE customer_name IS NOT NULL) AS named,
              bool_and(customer_email IS NULL OR customer_email ~ '^[a-z]+\\.[a-z]+[0-9]*@example\\.(com|org|net)$') AS example_emails,
              count(*) FILTER (WHERE location_id = $2) AS at_location,
              bool_and(updated_at >= created_at) AS updated_after_created,
              extract(epoch FROM min(created_at)) * 1000 AS oldest,
              extract(epoch FROM max(updated_at)) * 1000 AS newest
       FROM suggestions WHERE business_id = $1`,
      [id, location.id],
    );
    expect(shape).toMatchObject({ anonymous_consistent: true, example_emails: true, updated_after_created: true });
    expect(shape.anonymous).toBeGreaterThan(0);
    expect(shape.named).toBeGreaterThan(0);
    expect(shape.at_location).toBeGreaterThan(0);
    // spread over the year before `now`, never after it
    expect(shape.oldest).toBeGreaterThanOrEqual(now - 365 * DAY_MS);
    expect(shape.oldest).toBeLessThan(now - 360 * DAY_MS);
    expect(shape.newest).toBeLessThanOrEqual(now);

    const issues = await one<Record<string, unknown>>(
      `SELECT array_agg(DISTINCT status::text) AS statuses,
              bool_and(assignee_id IS NULL) FILTER (WHERE status = 'open') AS open_unassigned,
              bool_and(assignee_id IS NOT NULL) FILTER (WHERE status = 'assigned') AS assigned_assigned,
              bool_and((resolved_at IS NOT NULL) = (status IN ('resolved', 'closed'))) AS resolved_consistent,
              bool_and(resolved_at IS NULL OR resolved_at >= created_at) AS resolved_after_created,
              bool_and(assignee_id IS NULL OR assignee_id IN (SELECT user_id FROM memberships WHERE business_id = $1))
                AS assignees_are_members
       FROM issues WHERE business_id = $1`,
      [id],
    );
    expect((issues.statuses as string[]).sort()).toEqual([...ISSUE_STATUSES].sort());
    expect(issues).toMatchObject({
      open_unassigned: true,
      assigned_assigned: true,
      resolved_consistent: true,
      resolved_after_created: true,
      assignees_are_members: true,
    });

    const comments = await one<Record<string, number | boolean>>(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE p.created_at IS NOT NULL AND c.created_at >= p.created_at) AS after_parent,
              bool_and(c.author_id IN (SELECT user_id FROM memberships WHERE business_id = $1)) AS by_members
       FROM comments c
       LEFT JOIN LATERAL (
         SELECT created_at FROM suggestions s WHERE c.entity_type = 'suggestion' AND s.id = c.entity_id AND s.business_id = $1
         UNION ALL
         SELECT created_at FROM issues i WHERE c.entity_type = 'issue' AND i.id = c.entity_id AND i.business_id = $1
       ) p ON true
       WHERE c.business_id = $1`,
      [id],
    );
    expect(comments).toEqual({ total: 400, after_parent: 400, by_members: true });

    expect(await countMismatches(ctx.db, id)).toEqual([]);
    const activity = await one<{ n: number; data: object }>(
      `SELECT count(*) AS n, max(data::text)::jsonb AS data FROM activity WHERE business_id = $1 AND type = 'business.seeded'`,
      [id],
    );
    expect(activity).toEqual({ n: 1, data: { suggestions: 2000, issues: 300, comments: 400 } });
  });

  it('When the business does not exist, then the seed fails as not found and inserts nothing', async () => {
    const missing = '0190c7f0-0000-7000-8000-000000000000';
    await expect(seedBusiness(ctx.db.pool, missing, { suggestions: 10, issues: 0, comments: 0 })).rejects.toThrow(
      /not found/,
    );
    expect(
      (await one<{ n: number }>('SELECT count(*) AS n FROM suggestions WHERE business_id = $1', [missing])).n,
    ).toBe(0);
  });
  it('When the seed command has run, then the seeded tables are analyzed, so the next list is planned on current statistics', async () => {
    const t = await buildTeam(ctx.db);
    const before = new Date(Date.now() - 1_000);
    const seed = SEED_COMMANDS.seed!;
    await seed.run(
      ctx.db,
      { business: t.business.id, suggestions: 20, issues: 2, comments: 2 } as never,
      loadConfig({}),
    );
    // Statistics reach the views at most once a second otherwise.
    await ctx.db.pool.query('SELECT pg_stat_force_next_flush()');
    const { rows } = await ctx.db.pool.query<{ relname: string; last_analyze: Date | null }>(
      `SELECT relname, last_analyze FROM pg_stat_user_tables
       WHERE relname IN ('suggestions', 'issues', 'comments') ORDER BY relname`,
    );
    expect(rows.map((row) => row.relname)).toEqual(['comments', 'issues', 'suggestions']);
    for (const row of rows) expect(row.last_analyze!.getTime(), row.relname).toBeGreaterThanOrEqual(before.getTime());
  });
});
