import type { Database } from '../../src/db/database.js';

export interface CountMismatch {
  counter: string;
  key: string;
  counted: number | null;
  actual: number | null;
}

/**
 * Every counter of a business (summed over its shards) set against count(*) over the rows it counts
 * (a suggestion merged into another is counted by none but the change counter and its rank).
 * Empty when the counters are exact; otherwise each key whose figures differ, for a readable failure.
 */
export async function countMismatches(db: Database, businessId: string): Promise<CountMismatch[]> {
  const { rows } = await db.pool.query<CountMismatch>(
    /* sql */ `
    WITH counted_suggestions AS (
      SELECT concat_ws('/', status, priority, sentiment) AS key, sum(n) AS n, sum(score_e4) AS score
      FROM suggestion_counts
      WHERE business_id = $1
      GROUP BY status, priority, sentiment
      HAVING sum(n) <> 0 OR sum(score_e4) <> 0
    ), actual_suggestions AS (
      SELECT concat_ws('/', status, priority, sentiment) AS key, count(*) AS n, sum(score_e4(sentiment_score)) AS score
      FROM suggestions
      WHERE business_id = $1
        AND merged_into IS NULL
      GROUP BY status, priority, sentiment
    ), counted_issues AS (
      SELECT concat_ws('/', status, priority, coalesce(assignee_id::text, 'unassigned')) AS key, sum(n) AS n
      FROM issue_counts
      WHERE business_id = $1
      GROUP BY status, priority, assignee_id
      HAVING sum(n) <> 0
    ), actual_issues AS (
      SELECT concat_ws('/', status, priority, coalesce(assignee_id::text, 'unassigned')) AS key, count(*) AS n
      FROM issues
      WHERE business_id = $1
      GROUP BY status, priority, assignee_id
    ), counted_days AS (
      SELECT concat_ws('/', entity, day) AS key, sum(n) AS n
      FROM created_counts
      WHERE business_id = $1
      GROUP BY entity, day
      HAVING sum(n) <> 0
    ), actual_days AS (
      SELECT concat_ws('/', 'suggestion', utc_day(created_at)) AS key, count(*) AS n
      FROM suggestions
      WHERE business_id = $1
        AND merged_into IS NULL
      GROUP BY utc_day(created_at)
      UNION ALL
      SELECT concat_ws('/', 'issue', utc_day(created_at)), count(*)
      FROM issues
      WHERE business_id = $1
      GROUP BY utc_day(created_at)
    ), counted_unscored AS (
      SELECT 'unscored' AS key, sum(n) AS n
      FROM unscored_counts
      WHERE business_id = $1
      HAVING sum(n) <> 0
    ), actual_unscored AS (
      SELECT 'unscored' AS key, count(*) AS n
      FROM suggestions
      WHERE business_id = $1
        AND sentiment_lexicon IS NULL
        AND sentiment = 'neutral'
        AND merged_into IS NULL
      HAVING count(*) <> 0
    )
    SELECT 'suggestion_counts' AS counter, key, c.n AS counted, a.n AS actual
    FROM counted_suggestions c
    FULL JOIN actual_suggestions a USING (key)
    WHERE c.n IS DISTINCT FROM a.n OR c.score IS DISTINCT FROM a.score
    UNION ALL
    SELECT 'issue_counts', key, c.n, a.n
    FROM counted_issues c
    FULL JOIN actual_issues a USING (key)
    WHERE c.n IS DISTINCT FROM a.n
    UNION ALL
    SELECT 'created_counts', key, c.n, a.n
    FROM counted_days c
    FULL JOIN actual_days a USING (key)
    WHERE c.n IS DISTINCT FROM a.n
    UNION ALL
    SELECT 'unscored_counts', key, c.n, a.n
    FROM counted_unscored c
    FULL JOIN actual_unscored a USING (key)
    WHERE c.n IS DISTINCT FROM a.n`,
    [businessId],
  );
  return rows;
}

/** count(*) of a business's rows matching a condition on the table: the figure every total must equal. */
export async function countRows(
  db: Database,
  table: 'suggestions' | 'issues',
  businessId: string,
  condition = 'true',
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${table} WHERE business_id = $1 AND (${condition})`,
    [businessId, ...params],
  );
  return rows[0]!.n;
}
