/** One optional filter: a constant column, a constant operator, and a value that is skipped when undefined. */
export type Condition = readonly [column: string, operator: '=' | '>' | '>=' | '<=' | '<', value: unknown];

/**
 * `WHERE business_id = $1 AND ...` for the conditions that have a value. Column names and operators
 * come from code, never from the request; values only travel as parameters.
 */
export function whereClause(
  businessId: string,
  conditions: readonly Condition[],
  alias = '',
): { sql: string; params: unknown[] } {
  const prefix = alias ? `${alias}.` : '';
  const params: unknown[] = [businessId];
  const parts = [`${prefix}business_id = $1`];
  for (const [column, operator, value] of conditions) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(`${prefix}${column} ${operator} $${params.length}`);
  }
  return { sql: `WHERE ${parts.join('\n  AND ')}`, params };
}
