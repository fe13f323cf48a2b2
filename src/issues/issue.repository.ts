import { defineListing, LIST_FILTER_FIELDS, type ListFilter } from '../counts/listing.js';
import { andRecordsSql, queuedSql, recordsSql, type Records, recordedRow } from '../outbox/outbox.repository.js';
import { columnList, fieldSqlOf, isoText, jsonObjectSql } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import type { EntrySource, IssueStatus, Priority } from '../shared/schemas.js';
import { TAG_CONDITION } from '../shared/tags.js';
import type { ResolvedAtChange } from './issue-state.js';
import { ISSUE_COLUMN_MAP, type IssueRow } from './issue.columns.js';

export type { IssueRow };

const COLUMNS = columnList(ISSUE_COLUMN_MAP);

/**
 * The single-item read (toIssueResponse) as SQL over an issue row: the object of the events an issue's
 * own statement records. The same fields and values as the presenter's, from the same column map
 * (test/api/events.test.ts).
 */
const ISSUE_OBJECT_SQL = jsonObjectSql(fieldSqlOf(ISSUE_COLUMN_MAP, ['list', 'read']));

/** The assignee, when one is named, is a member of the business. */
const ASSIGNABLE = (assigneeId: string) => /* sql */ `(${assigneeId}::uuid IS NULL OR EXISTS (
          SELECT 1
          FROM memberships m
          WHERE m.business_id = $1
            AND m.user_id = ${assigneeId}::uuid))`;

export interface IssueFilter extends ListFilter {
  status?: IssueStatus;
  priority?: Priority;
  assigneeId?: string;
  /** The title and description's detected language (ISO 639-1): counted on the rows. */
  lang?: string;
  /** Tag names as the items carry them (tagFilterOf): every one must match. */
  tag?: string[];
}

const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  priority: 'priority',
  status: 'status',
  resolved_at: 'resolved_at',
} as const;

const issues = defineListing<IssueRow, IssueFilter, keyof typeof SORT_COLUMNS>({
  entity: 'issue',
  columns: COLUMNS,
  filters: {
    status: ['status = ?', 'key'],
    priority: ['priority = ?', 'key'],
    assigneeId: ['assignee_id = ?', 'key'],
    lang: ['language = ?', 'rows'],
    tag: [TAG_CONDITION, 'tag', 'per-value'],
    ...LIST_FILTER_FIELDS,
  },
  sortColumns: SORT_COLUMNS,
  // the list fields of spec 4.3, as exports read them (value arrays) and write them out as they come
  recordFields: fieldSqlOf(ISSUE_COLUMN_MAP, ['list']),
});

/** What a list's `sort` accepts (issue.schemas.ts). */
export const ISSUE_SORTS = issues.sorts;
export type IssueSort = (typeof ISSUE_SORTS)[number];

export const ISSUE_LIST_FIELDS = issues.recordFields;
export const selectIssueRecords = issues.selectRecords;
export const countIssues = issues.count;
export const findIssuePage = issues.findPage;
export const findIssue = issues.find;

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
  source: EntrySource;
  /** Detected from the title and description (issueLanguage), null when unsure. */
  language: string | null;
  /** Resolved names, sorted (resolveTagNames); none when absent. */
  tags?: string[];
}

export interface IssueChanges {
  status: IssueStatus;
  priority?: Priority;
  assigneeId: string | null;
  resolvedAt: ResolvedAtChange;
  /** The whole new set, resolved and sorted; absent keeps it. */
  tags?: string[];
  /** A new title and description with their detected language; absent keeps all three. */
  text?: { title: string; description: string; language: string | null };
}

type Recorded = { row: IssueRow; queued: number } | null;

/**
 * Inserts an issue with its records (the activity's data given, the event's object read from the new
 * row) in one statement: no transaction of its own, one round trip. Null, and nothing written, when
 * the assignee is not a member of the business.
 */
export async function insertRecordedIssue(
  db: Queryable,
  businessId: string,
  issue: NewIssueRow,
  records: Records,
  activityData: Record<string, unknown>,
): Promise<Recorded> {
  const params: unknown[] = [
    businessId,
    issue.id,
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
    issue.tags ?? [],
    issue.language,
  ];
  const records_ = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    // a parameter only where it is read: a statement that records nothing has none
    activityData: records.activity ? `$${params.push(JSON.stringify(activityData))}::jsonb` : 'NULL',
    eventData: `jsonb_build_object('object', ${ISSUE_OBJECT_SQL})`,
  });
  const { rows } = await db.query<IssueRow & { queued: number }>(
    /* sql */ `
    WITH changed AS (
      INSERT INTO issues (id, business_id, title, description, status, priority, assignee_id, customer_name,
        customer_email, is_anonymous, location_id, source, tags, language, resolved_at)
      SELECT $2, $1, $3, $4, $5::issue_status, $6, $7, $8, $9, $10, $11, $12, $13::text[], $14,
        CASE WHEN $5::issue_status = 'resolved' THEN now() END
      WHERE ${ASSIGNABLE('$7')}
      RETURNING ${COLUMNS}
    )${andRecordsSql(records_)}
    SELECT ${COLUMNS}, ${queuedSql(records)} AS queued
    FROM changed`,
    params,
  );
  return recordedRow(rows);
}

/**
 * Changes an issue and stamps updated_at, with its records in the same statement: the activity's data
 * and the event's changes given, except resolved_at's, read from the changed row like the event's
 * object. Status and assignee are always written (the service computes them together); priority only
 * when given. Null when there is no such issue or the assignee is not a member of the business.
 */
export async function updateRecordedIssue(
  db: Queryable,
  businessId: string,
  id: string,
  changes: IssueChanges,
  records: Records,
  recordedData: {
    activity: Record<string, unknown>;
    changes: Record<string, unknown>;
    resolvedAtBefore: string | null;
  },
): Promise<Recorded> {
  const params: unknown[] = [
    businessId,
    id,
    changes.status,
    changes.priority ?? null,
    changes.assigneeId,
    changes.resolvedAt,
    JSON.stringify(recordedData.activity),
    JSON.stringify(recordedData.changes),
    recordedData.resolvedAtBefore,
    changes.tags ?? null,
    changes.text !== undefined,
    changes.text?.title ?? null,
    changes.text?.description ?? null,
    changes.text?.language ?? null,
  ];
  const resolvedAt = isoText('resolved_at');
  const records_ = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    activityData: '$7::jsonb',
    eventData: /* sql */ `jsonb_build_object(
        'object', ${ISSUE_OBJECT_SQL},
        'changes', $8::jsonb || CASE
          WHEN ${resolvedAt} IS DISTINCT FROM $9::text
          THEN jsonb_build_object('resolved_at', jsonb_build_object('from', $9::text, 'to', ${resolvedAt}))
          ELSE '{}'
        END)`,
  });
  const { rows } = await db.query<IssueRow & { queued: number }>(
    /* sql */ `
    WITH changed AS (
      UPDATE issues
      SET status = $3,
          priority = COALESCE($4, priority),
          assignee_id = $5,
          tags = COALESCE($10::text[], tags),
          title = CASE WHEN $11::boolean THEN $12 ELSE title END,
          description = CASE WHEN $11::boolean THEN $13 ELSE description END,
          language = CASE WHEN $11::boolean THEN $14 ELSE language END,
          resolved_at = CASE $6 WHEN 'stamp' THEN clock_timestamp() WHEN 'clear' THEN NULL ELSE resolved_at END,
          updated_at = clock_timestamp()
      WHERE business_id = $1
        AND id = $2
        AND ${ASSIGNABLE('$5')}
      RETURNING ${COLUMNS}
    ),
    ${records_}
    SELECT ${COLUMNS}, ${queuedSql(records)} AS queued
    FROM changed`,
    params,
  );
  return recordedRow(rows);
}

export interface UnassignedIssueRow {
  id: string;
  priority: Priority;
  status_before: IssueStatus;
  status: IssueStatus;
}

/**
 * Unassigns every issue of a member who is leaving: `assigned` ones go back to `open` (nobody works
 * on them any more), the others keep their status. The old status comes from the locked row.
 */
export async function unassignIssuesOf(
  db: Queryable,
  businessId: string,
  userId: string,
): Promise<UnassignedIssueRow[]> {
  const { rows } = await db.query<UnassignedIssueRow>(
    /* sql */ `
    UPDATE issues AS i
    SET assignee_id = NULL,
      status = CASE WHEN old.status = 'assigned' THEN 'open'::issue_status ELSE old.status END,
      updated_at = now()
    FROM (
      SELECT id, status
      FROM issues
      WHERE business_id = $1
        AND assignee_id = $2
      ORDER BY id
      FOR UPDATE
    ) AS old
    WHERE i.id = old.id
    RETURNING i.id, i.priority, old.status AS status_before, i.status`,
    [businessId, userId],
  );
  return rows;
}
