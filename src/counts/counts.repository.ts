import type { Queryable } from '../db/database.js';
import { whereClause, type Condition } from '../db/where.js';
import type { Sentiment } from '../shared/schemas.js';

/**
 * Reads of the counters that triggers keep in the same transaction as every write (migration
 * 0003_counts.sql, docs/counting.md). Each costs a few dozen counter rows however many rows are
 * counted; shards are always summed. The `...Sql` builders return a statement with a single `total`
 * column, their values appended to `params`, for a repository to run alone or inside a larger one.
 */

/** The counted tables by entity, each with its counters: constants, never from a request. */
export const COUNTED_TABLES = {
  // merged suggestions are left out of the counters (0027_merging.sql): `counted` says which rows are in
  suggestion: { rows: 'suggestions', counters: 'suggestion_counts', counted: 't.merged_into IS NULL' },
  issue: { rows: 'issues', counters: 'issue_counts', counted: 'TRUE' },
} as const;
export type CountedEntity = keyof typeof COUNTED_TABLES;

/**
 * Rows of a business matching every given condition: each compares a dimension of the entity's
 * counters (a column of both the rows and the counters, such as `status = ?`) for equality.
 */
export function counterTotalSql(
  entity: CountedEntity,
  businessId: string,
  keys: readonly Condition[],
  params: unknown[],
): string {
  return /* sql */ `
    SELECT coalesce(sum(n), 0) AS total
    FROM ${COUNTED_TABLES[entity].counters}
    ${whereClause(businessId, keys, params).sql}`;
}

/** Rows of a business carrying `tag` (as the items spell it): one row of the tag counters (0026_tags.sql). */
export function tagTotalSql(entity: CountedEntity, businessId: string, tag: string, params: unknown[]): string {
  return /* sql */ `
    SELECT coalesce(sum(n), 0) AS total
    FROM tag_counts
    WHERE business_id = $${params.push(businessId)}
      AND entity = '${entity}'
      AND tag = $${params.push(tag)}`;
}

/**
 * Rows of a business created after `boundSql` (`inclusive`: at or after), an SQL expression such as a
 * placeholder. Whole UTC days after the bound's day come from created_counts; the rest of the bound's
 * own day is counted on the (business_id, created_at) index. So the cost is at most one day of rows,
 * never the whole history.
 */
function createdAfterSql(entity: CountedEntity, businessParam: string, boundSql: string, inclusive: boolean) {
  return /* sql */ `
    SELECT
      (SELECT coalesce(sum(c.n), 0)
       FROM created_counts c
       WHERE c.business_id = ${businessParam}
         AND c.entity = '${entity}'
         AND c.day > utc_day(${boundSql}))
      +
      (SELECT count(*)
       FROM ${COUNTED_TABLES[entity].rows} t
       WHERE t.business_id = ${businessParam}
         AND t.created_at ${inclusive ? '>=' : '>'} ${boundSql}
         AND t.created_at < (utc_day(${boundSql}) + 1)::timestamp AT TIME ZONE 'UTC'
         AND ${COUNTED_TABLES[entity].counted}) AS total`;
}

export function createdSinceSql(
  entity: CountedEntity,
  businessId: string,
  bound: Date,
  inclusive: boolean,
  params: unknown[],
): string {
  const businessParam = `$${params.push(businessId)}`;
  return createdAfterSql(entity, businessParam, `$${params.push(bound)}::timestamptz`, inclusive);
}

/** For each bound, in order, what createdSinceSql counts: the analytics windows in one round trip. */
export async function countCreatedSince(
  db: Queryable,
  entity: CountedEntity,
  businessId: string,
  bounds: Date[],
  { inclusive }: { inclusive: boolean },
): Promise<number[]> {
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT (${createdAfterSql(entity, '$1', 'b.bound', inclusive)}) AS total
    FROM unnest($2::timestamptz[]) WITH ORDINALITY AS b (bound, i)
    ORDER BY b.i`,
    [businessId, bounds],
  );
  return rows.map((row) => row.total);
}

export interface StatusCount {
  key: string;
  count: number;
}

/** Count per status (statuses with none are absent). */
export async function countByStatus(db: Queryable, businessId: string, entity: CountedEntity) {
  const { rows } = await db.query<StatusCount>(
    /* sql */ `
    SELECT status::text AS key, sum(n) AS count
    FROM ${COUNTED_TABLES[entity].counters}
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

/**
 * Suggestions no lexicon scored (their language has none, or none was detected): stored `neutral`
 * with a null sentiment_lexicon, and counted apart from neutral by analytics. Merged ones are left
 * out, as the counters leave them; a trigger keeps their counter (migrations/0071).
 */
export async function countUnscored(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    /* sql */ `
    SELECT COALESCE(sum(n), 0)::int AS count
    FROM unscored_counts
    WHERE business_id = $1`,
    [businessId],
  );
  return rows[0]?.count ?? 0;
}
