import { notFound } from '../errors/http-error.js';
import type { Queryable } from './database.js';
import { findPageWithTotal, orderAndPage, type PageRequest } from './paging.js';
import { whereClause, type Condition } from './where.js';

/** A plain resource's table, as its reads need it. */
export interface TableSpec<Sort extends string> {
  /** The table's name: a constant, never from a request. */
  table: string;
  /** The select list (`columnList` of the column map), without a table alias. */
  columns: string;
  /** What the 404 of a missing row calls it (`Location`). */
  resource: string;
  /** The columns a list may be sorted by, by the name clients use, as SQL; `all` orders by the first. */
  sorts: Record<Sort, string>;
}

/** The reads every plain resource has: one row, a page with its total, every row. */
export interface ResourceTable<Row, Sort extends string> {
  /** The row `id` of the business, or null; `forUpdate` locks it until the transaction ends. */
  find: (db: Queryable, businessId: string, id: string, options?: { forUpdate?: boolean }) => Promise<Row | null>;
  /** The row `id` of the business, or a 404 naming the resource. */
  get: (db: Queryable, businessId: string, id: string) => Promise<Row>;
  /** One page of the business's rows matching `conditions`, and how many match: one round trip. */
  page: (
    db: Queryable,
    businessId: string,
    page: PageRequest<Sort>,
    conditions?: readonly Condition[],
  ) => Promise<{ rows: Row[]; total: number }>;
  /** Every row of the business, in the first sort's order: for the short lists that are never paged. */
  all: (db: Queryable, businessId: string) => Promise<Row[]>;
}

/**
 * The `find`/`list` SQL a plain resource would otherwise write again: every statement filtered by the
 * business id first, values only as parameters, the sort from the spec's whitelist.
 */
export function resourceTable<Row extends { id: string }, Sort extends string>(
  spec: TableSpec<Sort>,
): ResourceTable<Row, Sort> {
  const { table, columns, resource, sorts } = spec;
  const find: ResourceTable<Row, Sort>['find'] = async (db, businessId, id, { forUpdate = false } = {}) => {
    const { rows } = await db.query<Row>(
      /* sql */ `
      SELECT ${columns}
      FROM ${table}
      WHERE business_id = $1
        AND id = $2
      ${forUpdate ? 'FOR UPDATE' : ''}`,
      [businessId, id],
    );
    return rows[0] ?? null;
  };
  return {
    find,
    async get(db, businessId, id) {
      const row = await find(db, businessId, id);
      if (!row) throw notFound(resource);
      return row;
    },
    page(db, businessId, page, conditions = []) {
      const { sql: where, params } = whereClause(businessId, conditions);
      return findPageWithTotal<Row>(db, `SELECT count(*) AS total FROM ${table} ${where}`, {
        sql: /* sql */ `
          SELECT ${columns}
          FROM ${table}
          ${where}
          ${orderAndPage(sorts[page.sort], page, params)}`,
        params,
      });
    },
    async all(db, businessId) {
      const first = Object.values<string>(sorts)[0]!;
      const { rows } = await db.query<Row>(
        /* sql */ `
        SELECT ${columns}
        FROM ${table}
        WHERE business_id = $1
        ORDER BY ${first}, id`,
        [businessId],
      );
      return rows;
    },
  };
}
