/**
 * One optional filter: SQL with a single `?` standing for its value, and the value, skipped when
 * undefined. The SQL is always a constant written in code; only the value comes from the request.
 */
export type Condition = readonly [sql: string, value: unknown];

/** A statement and its `$n` parameters, built by a repository for whoever runs it. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
  /** Planned for its values each time it runs, never with a prepared statement's generic plan (see querySql). */
  perValue?: boolean;
}

/**
 * `WHERE business_id = $1 AND ...` for the conditions that have a value, with their parameters. Given
 * `params`, the values are appended to it and numbered after it: one statement can hold several clauses.
 */
export function whereClause(businessId: string, conditions: readonly Condition[], params: unknown[] = []): SqlQuery {
  params.push(businessId);
  const parts = [`business_id = $${params.length}`];
  for (const [sql, value] of conditions) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  }
  return { sql: `WHERE ${parts.join('\n  AND ')}`, params };
}
