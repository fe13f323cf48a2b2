import type pg from 'pg';
import { recordActivity } from '../activity/activity.service.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import { badRequest, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { findMember } from '../users/user.repository.js';
import { nextIssueState } from './issue-state.js';
import { toIssueResponse } from './issue.presenter.js';
import {
  findIssue,
  findIssuePage,
  insertIssue,
  updateIssue,
  type IssueFilter,
  type IssueRow,
  type IssueSort,
} from './issue.repository.js';
import type { CreateIssueBody, UpdateIssueBody } from './issue.schemas.js';
import type { Queryable } from '../db/database.js';

export async function listIssues(
  pool: pg.Pool,
  businessId: string,
  filter: IssueFilter,
  page: PageRequest<IssueSort>,
): Promise<{ rows: IssueRow[]; total: number }> {
  return findIssuePage(pool, businessId, filter, page);
}

export async function getIssue(pool: pg.Pool, businessId: string, id: string): Promise<IssueRow> {
  const row = await findIssue(pool, businessId, id);
  if (!row) throw notFound('Issue');
  return row;
}

async function requireAssignable(db: Queryable, businessId: string, assigneeId: string | null | undefined) {
  if (assigneeId && !(await findMember(db, businessId, assigneeId))) {
    throw badRequest('Validation failed: assignee_id: not a member of this business');
  }
}

/** A new issue is open, or assigned when someone is named. */
export async function createIssue(pool: pg.Pool, principal: Principal, input: CreateIssueBody): Promise<IssueRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    await requireAssignable(tx, businessId, input.assignee_id);
    const row = await insertIssue(tx, businessId, {
      id: newId(),
      title: input.title,
      description: input.description,
      status: input.assignee_id ? 'assigned' : 'open',
      priority: input.priority,
      assigneeId: input.assignee_id ?? null,
      customerName: input.customer_name ?? null,
      customerEmail: input.customer_email ?? null,
      locationId: null,
      source: principal.kind === 'api_key' ? 'api' : 'dashboard',
    });
    await recordActivity(tx, principal, {
      type: 'issue.created',
      entityType: 'issue',
      entityId: row.id,
      data: { status: row.status, priority: row.priority, assignee_id: row.assignee_id },
      publish: { object: toIssueResponse(row) },
    });
    return row;
  });
}

export async function changeIssue(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  changes: UpdateIssueBody,
): Promise<IssueRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const before = await findIssue(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Issue');
    await requireAssignable(tx, businessId, changes.assignee_id);
    const next = nextIssueState(
      { status: before.status, assigneeId: before.assignee_id },
      { status: changes.status, assigneeId: changes.assignee_id },
    );
    const row = (await updateIssue(tx, businessId, id, { ...next, priority: changes.priority }))!;
    const snapshot = (i: IssueRow) => ({ status: i.status, priority: i.priority, assignee_id: i.assignee_id });
    const published = (i: IssueRow) => ({ ...snapshot(i), resolved_at: i.resolved_at?.toISOString() ?? null });
    await recordActivity(tx, principal, {
      type: 'issue.updated',
      entityType: 'issue',
      entityId: id,
      data: { from: snapshot(before), to: snapshot(row) },
      publish: { object: toIssueResponse(row), changes: fieldChanges(published(before), published(row)) },
    });
    return row;
  });
}
