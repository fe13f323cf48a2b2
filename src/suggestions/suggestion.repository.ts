import { planCount, type FilterKind } from '../counts/count-plan.js';
import { createdSinceSql, suggestionCountSql } from '../counts/counts.repository.js';
import { isoText } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { findPageWithTotal, orderAndPage, type PageRequest } from '../db/paging.js';
import { whereClause, type Condition, type SqlQuery } from '../db/where.js';
import type { Priority, Sentiment, SuggestionStatus, Visibility } from '../shared/schemas.js';
import { SEARCH_CONDITION, searchRank } from '../shared/search.js';
import type { SUGGESTION_SORTS } from './suggestion.schemas.js';

export type ReviewState = 'not_required' | 'pending' | 'approved' | 'rejected';

export interface SuggestionRow {
  id: string;
  content: string;
  status: SuggestionStatus;
  priority: Priority;
  sentiment: Sentiment;
  sentiment_score: number;
  customer_name: string | null;
  customer_email: string | null;
  upvote_count: number;
  is_anonymous: boolean;
  visibility: Visibility;
  review_state: ReviewState;
  location_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = /* sql */ `id, content, status, priority, sentiment, sentiment_score, customer_name, customer_email,
  upvote_count, is_anonymous, visibility, review_state, location_id, created_at, updated_at`;

/**
 * The list fields of spec 4.2, in its order, each as the SQL that reads it as a client sees it:
 * exports read them as value arrays (see selectSuggestionRecords) and write them out as they come.
 */
const LIST_FIELD_SQL = {
  id: 'id',
  content: 'content',
  status: 'status',
  priority: 'priority',
  sentiment: 'sentiment',
  sentiment_score: 'sentiment_score',
  customer_name: 'customer_name',
  customer_email: 'customer_email',
  upvote_count: 'upvote_count',
  created_at: isoText('created_at'),
  updated_at: isoText('updated_at'),
} as const;
export const SUGGESTION_LIST_FIELDS = Object.keys(LIST_FIELD_SQL) as (keyof typeof LIST_FIELD_SQL)[];

export interface SuggestionFilter {
  status?: SuggestionStatus;
  priority?: Priority;
  sentiment?: Sentiment;
  /** created strictly after (lists) */
  since?: Date;
  /** created at or after (exports) */
  createdFrom?: Date;
  /** created at or before (exports) */
  createdUntil?: Date;
  /** a prefix tsquery (see shared/search.ts) */
  q?: string;
}

export type SuggestionSort = (typeof SUGGESTION_SORTS)[number];

/** Whitelisted sort columns: the only identifiers that ever come from a request, via this map. */
const SORT_COLUMNS: Record<Exclude<SuggestionSort, 'relevance'>, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  priority: 'priority',
  status: 'status',
  upvote_count: 'upvote_count',
  sentiment_score: 'sentiment_score',
};

const conditions = (filter: SuggestionFilter): Condition[] => [
  ['status = ?', filter.status],
  ['priority = ?', filter.priority],
  ['sentiment = ?', filter.sentiment],
  ['created_at > ?', filter.since],
  ['created_at >= ?', filter.createdFrom],
  ['created_at <= ?', filter.createdUntil],
  [SEARCH_CONDITION, filter.q],
];

/**
 * The list query as text and parameters, reading `columns` (a whole row by default): run inside
 * findSuggestionPage, or through a cursor by exports (selectSuggestionRecords). Given `params`, its
 * values are appended to them (see whereClause).
 */
export function selectSuggestions(
  businessId: string,
  filter: SuggestionFilter,
  page: PageRequest<SuggestionSort>,
  params: unknown[] = [],
  columns = COLUMNS,
): SqlQuery {
  const { sql } = whereClause(businessId, conditions(filter), params);
  const sortSql = page.sort === 'relevance' ? searchRank(`$${params.push(filter.q)}`) : SORT_COLUMNS[page.sort];
  return {
    sql: /* sql */ `
    SELECT ${columns}
    FROM suggestions
    ${sql}
    ${orderAndPage(sortSql, page, params)}`,
    params,
  };
}

/** The list query reading SUGGESTION_LIST_FIELDS, in their order: one value array per row (rowMode 'array'). */
export function selectSuggestionRecords(
  businessId: string,
  filter: SuggestionFilter,
  page: PageRequest<SuggestionSort>,
): SqlQuery {
  return selectSuggestions(businessId, filter, page, [], Object.values(LIST_FIELD_SQL).join(', '));
}

/** Which filters the counters can answer (src/counts/count-plan.ts): every field is classified. */
const COUNTABLE: Record<keyof SuggestionFilter, FilterKind> = {
  status: 'key',
  priority: 'key',
  sentiment: 'key',
  since: 'after',
  createdFrom: 'from',
  createdUntil: 'rows',
  q: 'rows',
};

/**
 * A statement with one `total` column: the exact number of matching suggestions, from the counters
 * when the filter is equality-only or a lone lower bound (a cost that does not grow with the
 * business's rows), otherwise count(*), on an index alone where one covers the filter.
 */
function totalSql(businessId: string, filter: SuggestionFilter, params: unknown[]): string {
  const plan = planCount(filter, COUNTABLE);
  switch (plan.by) {
    case 'counters':
      return suggestionCountSql(businessId, plan.keys, params);
    case 'created':
      return createdSinceSql('suggestion', businessId, plan.bound, plan.inclusive, params);
    case 'rows':
      return /* sql */ `
    SELECT count(*) AS total
    FROM suggestions
    ${whereClause(businessId, conditions(filter), params).sql}`;
  }
}

export async function countSuggestions(db: Queryable, businessId: string, filter: SuggestionFilter): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ total: number }>(totalSql(businessId, filter, params), params);
  return rows[0]!.total;
}

/** A page and the exact total in one statement (see findPageWithTotal). */
export function findSuggestionPage(
  db: Queryable,
  businessId: string,
  filter: SuggestionFilter,
  page: PageRequest<SuggestionSort>,
): Promise<{ rows: SuggestionRow[]; total: number }> {
  const params: unknown[] = [];
  const total = totalSql(businessId, filter, params);
  return findPageWithTotal(db, total, selectSuggestions(businessId, filter, page, params));
}

/** `forUpdate` locks the row for the rest of the transaction, so a read-modify-write sees no interleaving. */
export async function findSuggestion(
  db: Queryable,
  businessId: string,
  id: string,
  { forUpdate = false } = {},
): Promise<SuggestionRow | null> {
  const { rows } = await db.query<SuggestionRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM suggestions
    WHERE business_id = $1
      AND id = $2
    ${forUpdate ? 'FOR UPDATE' : ''}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

export interface NewSuggestionRow {
  id: string;
  content: string;
  status: SuggestionStatus;
  priority: Priority;
  sentiment: Sentiment;
  sentimentScore: number;
  customerName: string | null;
  customerEmail: string | null;
  isAnonymous: boolean;
  visibility: Visibility;
  reviewState: ReviewState;
  locationId: string | null;
  source: 'api' | 'dashboard' | 'qr_code' | 'public_page' | 'import';
}

export async function insertSuggestion(db: Queryable, businessId: string, s: NewSuggestionRow): Promise<SuggestionRow> {
  const { rows } = await db.query<SuggestionRow>(
    /* sql */ `
    INSERT INTO suggestions (id, business_id, content, status, priority, sentiment, sentiment_score, customer_name,
      customer_email, is_anonymous, visibility, review_state, location_id, source)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
    RETURNING ${COLUMNS}`,
    [
      s.id,
      businessId,
      s.content,
      s.status,
      s.priority,
      s.sentiment,
      s.sentimentScore,
      s.customerName,
      s.customerEmail,
      s.isAnonymous,
      s.visibility,
      s.reviewState,
      s.locationId,
      s.source,
    ],
  );
  return rows[0]!;
}

export interface SuggestionChanges {
  status?: SuggestionStatus;
  priority?: Priority;
  visibility?: Visibility;
  reviewState?: ReviewState;
}

/** Unchanged fields keep their value through COALESCE. */
export async function updateSuggestion(
  db: Queryable,
  businessId: string,
  id: string,
  changes: SuggestionChanges,
): Promise<SuggestionRow | null> {
  const { rows } = await db.query<SuggestionRow>(
    /* sql */ `
    UPDATE suggestions
    SET status = COALESCE($3, status),
        priority = COALESCE($4, priority),
        visibility = COALESCE($5, visibility),
        review_state = COALESCE($6, review_state),
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [
      businessId,
      id,
      changes.status ?? null,
      changes.priority ?? null,
      changes.visibility ?? null,
      changes.reviewState ?? null,
    ],
  );
  return rows[0] ?? null;
}
