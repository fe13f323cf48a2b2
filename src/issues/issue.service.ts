import type pg from 'pg';
import { afterRecorded, recordsOf } from '../outbox/outbox.service.js';
import { withTransaction, type Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import { invalidField, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { nextTags, resolveTagNames, tagChange, tagFilterOf, withTags } from '../tags/tag.service.js';
import type { ChangeItemTagsBody } from '../tags/tag.schemas.js';
import { issueLanguage } from './issue-language.js';
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
  const tag = filter.tag && (await tagFilterOf(pool, businessId, filter.tag));
  return findIssuePage(pool, businessId, { ...filter, tag }, page);
}

export async function getIssue(pool: pg.Pool, businessId: string, id: string): Promise<IssueRow> {
  const row = await findIssue(pool, businessId, id);
  if (!row) throw notFound('Issue');
  return row;
}

const notAssignable = () => invalidField('assignee_id', 'not_a_member', 'not a member of this business');

/**
 * A new issue is open, or assigned when someone is named. The issue, its activity row and its event
 * are one statement, which also checks the assignee: atomic without a transaction, one round trip.
 */
export async function createIssue(pool: pg.Pool, principal: Principal, input: CreateIssueBody): Promise<IssueRow> {
  // With tags, a transaction: they are held from their lookup to the insert (resolveTagNames).
  if (input.tags.length > 0) {
    return withTransaction(pool, async (tx) =>
      insertIssue(tx, principal, input, await resolveTagNames(tx, principal.businessId, input.tags)),
    );
  }
  return insertIssue(pool, principal, input, []);
}

async function insertIssue(
  db: Queryable,
  principal: Principal,
  input: CreateIssueBody,
  tags: string[],
): Promise<IssueRow> {
  const status = input.assignee_id ? 'assigned' : 'open';
  const priority = input.priority;
  const assigneeId = input.assignee_id ?? null;
  const created = await insertRecordedIssue(
    db,
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
      language: issueLanguage(input.title, input.description),
      tags,
    },
    recordsOf(principal, { type: 'issue.created', entityType: 'issue' }, 'issue.created'),
    { status, priority, assignee_id: assigneeId, tags },
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
    // the tags first, then the issue: the order a rename or delete of a tag takes them in
    const tags = changes.tags && (await resolveTagNames(tx, businessId, changes.tags));
    const before = await findIssue(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Issue');
    const next = nextIssueState(
      { status: before.status, assigneeId: before.assignee_id },
      { status: changes.status, assigneeId: changes.assignee_id },
    );
    // A new title or description: the language is detected again from the two as they will be.
    const text = textChange(before, changes);
    const from = {
      status: before.status,
      priority: before.priority,
      assignee_id: before.assignee_id,
      ...(text && { title: before.title, description: before.description, language: before.language }),
    };
    // What the update writes (the row is locked); resolved_at's change is read from the row it writes.
    const to = {
      status: next.status,
      priority: changes.priority ?? before.priority,
      assignee_id: next.assigneeId,
      ...text,
    };
    const updated = await updateRecordedIssue(
      tx,
      businessId,
      id,
      { ...next, priority: changes.priority, tags, text },
      recordsOf(principal, { type: 'issue.updated', entityType: 'issue' }, 'issue.updated'),
      {
        ...withTags({ activity: { from, to }, changes: fieldChanges(from, to) }, tags && tagChange(before.tags, tags)),
        resolvedAtBefore: before.resolved_at?.toISOString() ?? null,
      },
    );
    // The issue is locked, so only the assignee can have refused the change.
    if (!updated) throw notAssignable();
    afterRecorded(updated.queued);
    return updated.row;
  });
}

/** The title, description and language an edit gives the issue; undefined when it changes neither text. */
function textChange(before: IssueRow, changes: UpdateIssueBody) {
  if (changes.title === undefined && changes.description === undefined) return undefined;
  const title = changes.title ?? before.title;
  const description = changes.description ?? before.description;
  return { title, description, language: issueLanguage(title, description) };
}

/**
 * Adds and removes tags by name, leaving the issue's others, its status and assignee as they are: an
 * `issue.updated` with `changes.tags` only, and nothing at all when the set comes out the same.
 */
export async function changeIssueTags(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  change: ChangeItemTagsBody,
): Promise<IssueRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const add = await resolveTagNames(tx, businessId, change.add ?? []);
    const remove = await resolveTagNames(tx, businessId, change.remove ?? []);
    const before = await findIssue(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Issue');
    const tags = nextTags(before.tags, add, remove);
    const tagged = tagChange(before.tags, tags);
    if (!tagged) return before;
    const updated = (await updateRecordedIssue(
      tx,
      businessId,
      id,
      { status: before.status, assigneeId: before.assignee_id, resolvedAt: 'keep', tags },
      recordsOf(principal, { type: 'issue.updated', entityType: 'issue' }, 'issue.updated'),
      {
        ...withTags({ activity: { from: {}, to: {} }, changes: {} }, tagged),
        resolvedAtBefore: before.resolved_at?.toISOString() ?? null,
      },
    ))!;
    afterRecorded(updated.queued);
    return updated.row;
  });
}
