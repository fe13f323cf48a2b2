import type { SortOrder } from '../shared/schemas.js';

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
