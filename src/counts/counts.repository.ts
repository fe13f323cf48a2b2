import type { Queryable } from '../db/database.js';
import { whereClause } from '../db/where.js';
import type { IssueStatus, Priority, Sentiment, SuggestionStatus } from '../shared/schemas.js';

/**
 * Reads of the counters that triggers keep in the same transaction as every write (migration
 * 0003_counts.sql, docs/counting.md). Each costs a few dozen counter rows however many rows are
 * counted; shards are always summed.
 */

export interface SuggestionCountKeys {
  status?: SuggestionStatus;
  priority?: Priority;
  sentiment?: Sentiment;
}

export interface IssueCountKeys {
  status?: IssueStatus;
  priority?: Priority;
  assigneeId?: string;
}

/** Suggestions of a business matching every given key. */
export async function sumSuggestionCounts(db: Queryable, businessId: string, keys: SuggestionCountKeys) {
  const { sql, params } = whereClause(businessId, [
    ['status = ?', keys.status],
    ['priority = ?', keys.priority],
    ['sentiment = ?', keys.sentiment],
  ]);
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT coalesce(sum(n), 0) AS total
    FROM suggestion_counts
    ${sql}`,
    params,
  );
  return rows[0]!.total;
}

/** Issues of a business matching every given key. */
export async function sumIssueCounts(db: Queryable, businessId: string, keys: IssueCountKeys) {
  const { sql, params } = whereClause(businessId, [
    ['status = ?', keys.status],
    ['priority = ?', keys.priority],
    ['assignee_id = ?', keys.assigneeId],
  ]);
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT coalesce(sum(n), 0) AS total
    FROM issue_counts
    ${sql}`,
    params,
  );
  return rows[0]!.total;
}

export interface StatusCount {
  key: string;
  count: number;
}

/** Count per status (statuses with none are absent). */
export async function countByStatus(db: Queryable, businessId: string, entity: 'suggestion' | 'issue') {
  const table = entity === 'suggestion' ? 'suggestion_counts' : 'issue_counts';
  const { rows } = await db.query<StatusCount>(
    /* sql */ `
    SELECT status::text AS key, sum(n) AS count
    FROM ${table}
    WHERE business_id = $1
    GROUP BY status
    HAVING sum(n) <> 0`,
    [businessId],
  );
  return rows;
}

export interface SentimentTotals {
  sentiment: Sentiment;
  count: number;
  /** Sum of the sentiment scores, exact to their 4 decimals. */
  score_sum: number;
}

export async function sentimentTotals(db: Queryable, businessId: string): Promise<SentimentTotals[]> {
  const { rows } = await db.query<SentimentTotals>(
    /* sql */ `
    SELECT sentiment::text AS sentiment, sum(n) AS count, sum(score_e4) / 10000.0 AS score_sum
    FROM suggestion_counts
    WHERE business_id = $1
    GROUP BY sentiment
    HAVING sum(n) <> 0`,
    [businessId],
  );
  return rows;
}

/** The tables whose creations created_counts counts per day: constants, never from a request. */
const CREATED_TABLES = { suggestion: 'suggestions', issue: 'issues' } as const;

/**
 * For each bound, the rows of a business created after it (`inclusive`: at or after). Whole UTC days
 * after the bound's day come from created_counts; the rest of the bound's own day is counted on the
 * (business_id, created_at) index. So the cost is at most one day of rows, never the whole history.
 */
export async function countCreatedSince(
  db: Queryable,
  entity: keyof typeof CREATED_TABLES,
  businessId: string,
  bounds: Date[],
  { inclusive }: { inclusive: boolean },
): Promise<number[]> {
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT
      (SELECT coalesce(sum(c.n), 0)
       FROM created_counts c
       WHERE c.business_id = $1
         AND c.entity = $2
         AND c.day > utc_day(b.bound))
      +
      (SELECT count(*)
       FROM ${CREATED_TABLES[entity]} t
       WHERE t.business_id = $1
         AND t.created_at ${inclusive ? '>=' : '>'} b.bound
         AND t.created_at < (utc_day(b.bound) + 1)::timestamp AT TIME ZONE 'UTC') AS total
    FROM unnest($3::timestamptz[]) WITH ORDINALITY AS b (bound, i)
    ORDER BY b.i`,
    [businessId, entity, bounds],
  );
  return rows.map((row) => row.total);
}
