import type { SortOrder } from '../shared/schemas.js';
import { querySql, type Queryable } from './database.js';
import type { SqlQuery } from './where.js';

export interface PageRequest<Sort extends string = string> {
  sort: Sort;
  order: SortOrder;
  limit: number;
  offset: number;
}

/**
 * `ORDER BY <sort>, id` in one direction, then LIMIT/OFFSET, with the two values appended to params.
 * The id tie-breaker makes the order total, so pages never repeat or skip rows. `sortSql` must be a
 * constant from a whitelist (or built from one).
 */
export function orderAndPage(sortSql: string, page: PageRequest, params: unknown[], idColumn = 'id'): string {
  const direction = page.order === 'asc' ? 'ASC' : 'DESC';
  params.push(page.limit, page.offset);
  return `ORDER BY ${sortSql} ${direction}, ${idColumn} ${direction}
    LIMIT $${params.length - 1}
    OFFSET $${params.length}`;
}

/**
 * A page and its exact total in one statement, so a list costs one round trip: `totalSql` (one
 * `total` column) is computed once and the page joined to it; a page past the end is a single row of
 * nulls besides the total. Both statements share `list.params`, the total's values first.
 */
export async function findPageWithTotal<Row extends { id: string }>(
  db: Queryable,
  totalSql: string,
  list: SqlQuery,
): Promise<{ rows: Row[]; total: number }> {
  const { rows } = await querySql<Row & { total: number }>(db, {
    ...list,
    sql: /* sql */ `
    SELECT t.total, p.*
    FROM (${totalSql}) AS t
    LEFT JOIN LATERAL (${list.sql}) AS p ON true`,
  });
  const first = rows[0]!;
  return { rows: first.id === null ? [] : rows, total: first.total };
}
