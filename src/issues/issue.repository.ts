import { planCount, type FilterKind } from '../counts/count-plan.js';
import { createdSinceSql, issueCountSql } from '../counts/counts.repository.js';
import { isoText } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { findPageWithTotal, orderAndPage, type PageRequest } from '../db/paging.js';
import { whereClause, type Condition, type SqlQuery } from '../db/where.js';
import type { IssueStatus, Priority } from '../shared/schemas.js';
import { SEARCH_CONDITION, searchRank } from '../shared/search.js';
import type { ResolvedAtChange } from './issue-state.js';
import type { IssueSort } from './issue.schemas.js';

export interface IssueRow {
  id: string;
  title: string;
  description: string;
  status: IssueStatus;
  priority: Priority;
  assignee_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  is_anonymous: boolean;
  location_id: string | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = /* sql */ `id, title, description, status, priority, assignee_id, customer_name, customer_email,
  is_anonymous, location_id, resolved_at, created_at, updated_at`;

/** The list fields of spec 4.3, in its order, as SQL reading them as a client sees them (exports). */
const LIST_FIELD_SQL = {
  id: 'id',
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  assignee_id: 'assignee_id',
  customer_name: 'customer_name',
  customer_email: 'customer_email',
  resolved_at: isoText('resolved_at'),
  created_at: isoText('created_at'),
  updated_at: isoText('updated_at'),
} as const;
export const ISSUE_LIST_FIELDS = Object.keys(LIST_FIELD_SQL) as (keyof typeof LIST_FIELD_SQL)[];

export interface IssueFilter {
  status?: IssueStatus;
  priority?: Priority;
  assigneeId?: string;
  /** created strictly after (lists) */
  since?: Date;
  /** created at or after (exports) */
  createdFrom?: Date;
  /** created at or before (exports) */
  createdUntil?: Date;
  /** a prefix tsquery (see shared/search.ts) */
  q?: string;
}

/** Whitelisted sort columns: the only identifiers that ever come from a request, via this map. */
const SORT_COLUMNS: Record<Exclude<IssueSort, 'relevance'>, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  priority: 'priority',
  status: 'status',
  resolved_at: 'resolved_at',
};

const conditions = (filter: IssueFilter): Condition[] => [
  ['status = ?', filter.status],
  ['priority = ?', filter.priority],
  ['assignee_id = ?', filter.assigneeId],
  ['created_at > ?', filter.since],
  ['created_at >= ?', filter.createdFrom],
  ['created_at <= ?', filter.createdUntil],
  [SEARCH_CONDITION, filter.q],
];

/**
 * The list query as text and parameters, reading `columns` (a whole row by default): run inside
 * findIssuePage, or through a cursor by exports (selectIssueRecords).
 * Given `params`, its values are appended to them (see whereClause).
 */
export function selectIssues(
  businessId: string,
  filter: IssueFilter,
  page: PageRequest<IssueSort>,
  params: unknown[] = [],
  columns = COLUMNS,
): SqlQuery {
  const { sql } = whereClause(businessId, conditions(filter), params);
  const sortSql = page.sort === 'relevance' ? searchRank(`$${params.push(filter.q)}`) : SORT_COLUMNS[page.sort];
  return {
    sql: /* sql */ `
    SELECT ${columns}
    FROM issues
    ${sql}
    ${orderAndPage(sortSql, page, params)}`,
    params,
  };
}

/** The list query reading ISSUE_LIST_FIELDS, in their order: one value array per row (rowMode 'array'). */
export function selectIssueRecords(businessId: string, filter: IssueFilter, page: PageRequest<IssueSort>): SqlQuery {
  return selectIssues(businessId, filter, page, [], Object.values(LIST_FIELD_SQL).join(', '));
}

/** Which filters the counters can answer (src/counts/count-plan.ts): every field is classified. */
const COUNTABLE: Record<keyof IssueFilter, FilterKind> = {
  status: 'key',
  priority: 'key',
  assigneeId: 'key',
  since: 'after',
  createdFrom: 'from',
  createdUntil: 'rows',
  q: 'rows',
};

/**
 * A statement with one `total` column: the exact number of matching issues, from the counters when
 * the filter is equality-only or a lone lower bound, otherwise count(*).
 */
function totalSql(businessId: string, filter: IssueFilter, params: unknown[]): string {
  const plan = planCount(filter, COUNTABLE);
  switch (plan.by) {
    case 'counters':
      return issueCountSql(businessId, plan.keys, params);
    case 'created':
      return createdSinceSql('issue', businessId, plan.bound, plan.inclusive, params);
    case 'rows':
      return /* sql */ `
    SELECT count(*) AS total
    FROM issues
    ${whereClause(businessId, conditions(filter), params).sql}`;
  }
}

export async function countIssues(db: Queryable, businessId: string, filter: IssueFilter): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ total: number }>(totalSql(businessId, filter, params), params);
  return rows[0]!.total;
}

/** A page and the exact total in one statement (see findPageWithTotal). */
export function findIssuePage(
  db: Queryable,
  businessId: string,
  filter: IssueFilter,
  page: PageRequest<IssueSort>,
): Promise<{ rows: IssueRow[]; total: number }> {
  const params: unknown[] = [];
  const total = totalSql(businessId, filter, params);
  return findPageWithTotal(db, total, selectIssues(businessId, filter, page, params));
}

/** `forUpdate` locks the row for the rest of the transaction, so a read-modify-write sees no interleaving. */
export async function findIssue(
  db: Queryable,
  businessId: string,
  id: string,
  { forUpdate = false } = {},
): Promise<IssueRow | null> {
  const { rows } = await db.query<IssueRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM issues
    WHERE business_id = $1
      AND id = $2
    ${forUpdate ? 'FOR UPDATE' : ''}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

export interface NewIssueRow {
  id: string;
  title: string;
  description: string;
  status: IssueStatus;
  priority: Priority;
  assigneeId: string | null;
  customerName: string | null;
  customerEmail: string | null;
  locationId: string | null;
  source: 'api' | 'dashboard' | 'qr_code' | 'public_page' | 'import';
}

export async function insertIssue(db: Queryable, businessId: string, issue: NewIssueRow): Promise<IssueRow> {
  const { rows } = await db.query<IssueRow>(
    /* sql */ `
    INSERT INTO issues (id, business_id, title, description, status, priority, assignee_id, customer_name,
      customer_email, is_anonymous, location_id, source, resolved_at)
    VALUES ($1, $2, $3, $4, $5::issue_status, $6, $7, $8, $9, $10, $11, $12,
      CASE WHEN $5::issue_status = 'resolved' THEN now() END)
    RETURNING ${COLUMNS}`,
    [
      issue.id,
      businessId,
      issue.title,
      issue.description,
      issue.status,
      issue.priority,
      issue.assigneeId,
      issue.customerName,
      issue.customerEmail,
      issue.customerName === null && issue.customerEmail === null,
      issue.locationId,
      issue.source,
    ],
  );
  return rows[0]!;
}

export interface IssueChanges {
  status: IssueStatus;
  priority?: Priority;
  assigneeId: string | null;
  resolvedAt: ResolvedAtChange;
}

/** Status and assignee are always written (the service computes them together); priority only when given. */
export async function updateIssue(
  db: Queryable,
  businessId: string,
  id: string,
  changes: IssueChanges,
): Promise<IssueRow | null> {
  const { rows } = await db.query<IssueRow>(
    /* sql */ `
    UPDATE issues
    SET status = $3,
        priority = COALESCE($4, priority),
        assignee_id = $5,
        resolved_at = CASE $6 WHEN 'stamp' THEN clock_timestamp() WHEN 'clear' THEN NULL ELSE resolved_at END,
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id, changes.status, changes.priority ?? null, changes.assigneeId, changes.resolvedAt],
  );
  return rows[0] ?? null;
}
