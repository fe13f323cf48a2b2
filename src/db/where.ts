/**
 * One optional filter: SQL with a single `?` standing for its value, and the value, skipped when
 * undefined. The SQL is always a constant written in code; only the value comes from the request.
 */
export type Condition = readonly [sql: string, value: unknown];

/** A statement and its `$n` parameters, built by a repository for whoever runs it. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

/** `WHERE business_id = $1 AND ...` for the conditions that have a value, with their parameters. */
export function whereClause(businessId: string, conditions: readonly Condition[]): SqlQuery {
  const params: unknown[] = [businessId];
  const parts = ['business_id = $1'];
  for (const [sql, value] of conditions) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  }
  return { sql: `WHERE ${parts.join('\n  AND ')}`, params };
}
