import type pg from 'pg';
import { afterRecorded, recordsOf } from '../outbox/outbox.service.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import { badRequest, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { nextIssueState } from './issue-state.js';
import {
  findIssue,
  findIssuePage,
  insertRecordedIssue,
  updateRecordedIssue,
  type IssueFilter,
  type IssueRow,
  type IssueSort,
} from './issue.repository.js';
import type { CreateIssueBody, UpdateIssueBody } from './issue.schemas.js';

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

const notAssignable = () => badRequest('Validation failed: assignee_id: not a member of this business');

/**
 * A new issue is open, or assigned when someone is named. The issue, its activity row and its event
 * are one statement, which also checks the assignee: atomic without a transaction, one round trip.
 */
export async function createIssue(pool: pg.Pool, principal: Principal, input: CreateIssueBody): Promise<IssueRow> {
  const status = input.assignee_id ? 'assigned' : 'open';
  const priority = input.priority;
  const assigneeId = input.assignee_id ?? null;
  const created = await insertRecordedIssue(
    pool,
    principal.businessId,
    {
      id: newId(),
      title: input.title,
      description: input.description,
      status,
      priority,
      assigneeId,
      customerName: input.customer_name ?? null,
      customerEmail: input.customer_email ?? null,
      locationId: null,
      source: principal.kind === 'api_key' ? 'api' : 'dashboard',
    },
    recordsOf(principal, { type: 'issue.created', entityType: 'issue' }, 'issue.created'),
    { status, priority, assignee_id: assigneeId },
  );
  if (!created) throw notAssignable();
  afterRecorded(created.queued);
  return created.row;
}

/**
 * Reads the issue under a lock (the state rules and what changed depend on it), then changes it,
 * checking the assignee, and records the change in one statement.
 */
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
    const next = nextIssueState(
      { status: before.status, assigneeId: before.assignee_id },
      { status: changes.status, assigneeId: changes.assignee_id },
    );
    const from = { status: before.status, priority: before.priority, assignee_id: before.assignee_id };
    // What the update writes (the row is locked); resolved_at's change is read from the row it writes.
    const to = { status: next.status, priority: changes.priority ?? before.priority, assignee_id: next.assigneeId };
    const updated = await updateRecordedIssue(
      tx,
      businessId,
      id,
      { ...next, priority: changes.priority },
      recordsOf(principal, { type: 'issue.updated', entityType: 'issue' }, 'issue.updated'),
      {
        activity: { from, to },
        changes: fieldChanges(from, to),
        resolvedAtBefore: before.resolved_at?.toISOString() ?? null,
      },
    );
    // The issue is locked, so only the assignee can have refused the change.
    if (!updated) throw notAssignable();
    afterRecorded(updated.queued);
    return updated.row;
  });
}
