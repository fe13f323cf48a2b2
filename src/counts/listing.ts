import { querySql, type Queryable } from '../db/database.js';
import { findPageWithTotal, orderAndPage, type PageRequest } from '../db/paging.js';
import { whereClause, type Condition, type SqlQuery } from '../db/where.js';
import { SEARCH_CONDITION, searchRank } from '../shared/search.js';
import { planCount, type FilterKind } from './count-plan.js';
import {
  COUNTED_TABLES,
  counterTotalSql,
  createdSinceSql,
  tagTotalSql,
  type CountedEntity,
} from './counts.repository.js';

/**
 * A filter field: its condition, constant SQL with one `?` for the value, and what can count it
 * (count-plan.ts). A `key` condition is also run on the counters, whose dimensions bear the same names.
 * `per-value` marks a condition whose best plan depends on its value (how many rows carry a tag or a
 * word): a list or count with it set is planned for its values each time (querySql).
 */
export type FilterField = readonly [sql: string, kind: FilterKind, plan?: 'per-value'];

/** The filter fields of every list: bounds on the creation time, and the search. */
export interface ListFilter {
  /** created strictly after (lists) */
  since?: Date;
  /** created at or after (exports) */
  createdFrom?: Date;
  /** created at or before (exports) */
  createdUntil?: Date;
  /** a prefix tsquery (see shared/search.ts) */
  q?: string;
}

/** How the fields of ListFilter are written and counted, for a listing's `filters` to include. */
export const LIST_FILTER_FIELDS: Record<keyof ListFilter, FilterField> = {
  since: ['created_at > ?', 'after'],
  createdFrom: ['created_at >= ?', 'from'],
  createdUntil: ['created_at <= ?', 'rows'],
  q: [SEARCH_CONDITION, 'rows', 'per-value'],
};

/** `relevance` ranks by the search (the filter's `q`); every other sort is a column. */
export type ListSort<SortName extends string> = SortName | 'relevance';

export interface ListingSpec<Filter, SortName extends string> {
  /** The rows, and the counters triggers keep of them (src/counts). */
  entity: CountedEntity;
  /** A whole row, as lists, finds and updates return it. */
  columns: string;
  /** Every filter field, in the order its conditions are written: none can be silently ignored. */
  filters: Record<keyof Filter, FilterField>;
  /** The column of each sort name: the only identifiers that ever come from a request, via this map. */
  sortColumns: Record<SortName, string>;
  /**
   * What a list in one of these sorts reads instead of the table: a derived table of the table's rows
   * (and the columns its sort column needs), named as the table, where the order lives in another
   * table's index (suggestion_ranks).
   */
  sortSources?: Partial<Record<SortName, string>>;
  /** The list fields a client sees, in their order, each as SQL: exports read them as value arrays. */
  recordFields: Record<string, string>;
}

/** Reads and updates of one business's rows of a counted table; lists come with their exact total. */
export interface Listing<Row, Filter, SortName extends string> {
  /** What a list's `sort` accepts, in order: the sort columns, then `relevance`. */
  sorts: readonly ListSort<SortName>[];
  /** The names of the record fields, in their order. */
  recordFields: string[];
  /** The list query reading the record fields: one value array per row (rowMode 'array'). */
  selectRecords: (businessId: string, filter: Filter, page: PageRequest<ListSort<SortName>>) => SqlQuery;
  /** The exact number of matching rows (see totalSql). */
  count: (db: Queryable, businessId: string, filter: Filter) => Promise<number>;
  /** A page and the exact total in one statement (see findPageWithTotal). */
  findPage: (
    db: Queryable,
    businessId: string,
    filter: Filter,
    page: PageRequest<ListSort<SortName>>,
  ) => Promise<{ rows: Row[]; total: number }>;
  /** `forUpdate` locks the row for the rest of the transaction, so a read-modify-write sees no interleaving. */
  find: (db: Queryable, businessId: string, id: string, options?: { forUpdate?: boolean }) => Promise<Row | null>;
  /**
   * Updates one row and stamps updated_at: `set` assigns columns from `$3` on (`$1` is the business,
   * `$2` the id), `values` are those parameters in order.
   */
  update: (db: Queryable, businessId: string, id: string, set: string, values: unknown[]) => Promise<Row | null>;
}

export function defineListing<Row extends { id: string }, Filter extends ListFilter, SortName extends string>(
  spec: ListingSpec<Filter, SortName>,
): Listing<Row, Filter, SortName> {
  const table = COUNTED_TABLES[spec.entity].rows;
  const fields = Object.keys(spec.filters) as (keyof Filter)[];
  const kinds = Object.fromEntries(fields.map((field) => [field, spec.filters[field][1]])) as Record<
    keyof Filter,
    FilterKind
  >;
  // A `shown` flag's condition always applies to the rows (absent, it is false), never to the counters.
  const conditions = (filter: Partial<Filter>, on: 'rows' | 'counters' = 'rows'): Condition[] =>
    fields.map((field) => {
      if (kinds[field] !== 'shown') return [spec.filters[field][0], filter[field]];
      return [spec.filters[field][0], on === 'rows' ? filter[field] === true : undefined];
    });

  const perValueFields = fields.filter((field) => spec.filters[field][2] === 'per-value');
  const perValue = (filter: Filter): boolean => perValueFields.some((field) => filter[field] !== undefined);

  /**
   * The list query as text and parameters, reading `columns`; given `params`, its values are appended
   * to them (see whereClause).
   */
  function select(
    businessId: string,
    filter: Filter,
    page: PageRequest<ListSort<SortName>>,
    params: unknown[] = [],
    columns = spec.columns,
  ): SqlQuery {
    const { sql } = whereClause(businessId, conditions(filter), params);
    const sortSql = page.sort === 'relevance' ? searchRank(`$${params.push(filter.q)}`) : spec.sortColumns[page.sort];
    return {
      sql: /* sql */ `
    SELECT ${columns}
    FROM ${(page.sort !== 'relevance' && spec.sortSources?.[page.sort]) || table}
    ${sql}
    ${orderAndPage(sortSql, page, params)}`,
      params,
      perValue: perValue(filter),
    };
  }

  /**
   * A statement with one `total` column: the exact number of matching rows, from the counters when the
   * filter is equality-only or a lone lower bound (a cost that does not grow with the business's rows),
   * otherwise count(*), on an index alone where one covers the filter.
   */
  function totalSql(businessId: string, filter: Filter, params: unknown[]): string {
    const plan = planCount(filter, kinds);
    switch (plan.by) {
      case 'counters':
        return counterTotalSql(spec.entity, businessId, conditions(plan.keys, 'counters'), params);
      case 'created':
        return createdSinceSql(spec.entity, businessId, plan.bound, plan.inclusive, params);
      case 'tag':
        return tagTotalSql(spec.entity, businessId, plan.tag, params);
      case 'rows':
        return /* sql */ `
    SELECT count(*) AS total
    FROM ${table}
    ${whereClause(businessId, conditions(filter), params).sql}`;
    }
  }

  return {
    sorts: [...(Object.keys(spec.sortColumns) as SortName[]), 'relevance'],
    recordFields: Object.keys(spec.recordFields),
    selectRecords: (businessId, filter, page) =>
      select(businessId, filter, page, [], Object.values(spec.recordFields).join(', ')),
    async count(db, businessId, filter) {
      const params: unknown[] = [];
      const sql = totalSql(businessId, filter, params);
      const { rows } = await querySql<{ total: number }>(db, { sql, params, perValue: perValue(filter) });
      return rows[0]!.total;
    },
    findPage(db, businessId, filter, page) {
      const params: unknown[] = [];
      const total = totalSql(businessId, filter, params);
      return findPageWithTotal<Row>(db, total, select(businessId, filter, page, params));
    },
    async find(db, businessId, id, { forUpdate = false } = {}) {
      const { rows } = await db.query<Row>(
        /* sql */ `
    SELECT ${spec.columns}
    FROM ${table}
    WHERE business_id = $1
      AND id = $2
    ${forUpdate ? 'FOR UPDATE' : ''}`,
        [businessId, id],
      );
      return rows[0] ?? null;
    },
    async update(db, businessId, id, set, values) {
      const { rows } = await db.query<Row>(
        /* sql */ `
    UPDATE ${table}
    SET ${set},
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${spec.columns}`,
        [businessId, id, ...values],
      );
      return rows[0] ?? null;
    },
  };
}
