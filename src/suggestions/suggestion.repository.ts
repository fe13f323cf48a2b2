import { defineListing, LIST_FILTER_FIELDS, type ListFilter } from '../counts/listing.js';
import { TAG_CONDITION } from '../shared/tags.js';
import {
  andRecordsSql,
  recordsSql,
  queuedSql,
  type EventObjectSql,
  type Records,
  recordedRow,
} from '../outbox/outbox.repository.js';
import { columnList, fieldSqlOf, jsonObjectSql } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import type { EntrySource, Priority, Sentiment, SuggestionStatus, Visibility } from '../shared/schemas.js';
import { SUGGESTION_COLUMN_MAP as COLUMN_MAP, type ReviewState, type SuggestionRow } from './suggestion.columns.js';

export type { ReviewState, SuggestionRow };

const COLUMNS = columnList(COLUMN_MAP);

/** Every column of a suggestion row, as reads, writes and the vote's statement return it. */
export const SUGGESTION_COLUMNS = COLUMNS;

/**
 * The dashboard read (toSuggestionDashboardResponse) as SQL over a suggestion row: the object of the
 * events a suggestion's own statement records (a create, a change, a vote). The same fields and values
 * as the presenter's, from the same column map; test/api/events.test.ts holds the two together.
 */
const OBJECT_FIELDS = fieldSqlOf(COLUMN_MAP, ['list', 'read', 'dashboard']);
export const SUGGESTION_OBJECT_SQL = jsonObjectSql(OBJECT_FIELDS);

/** The keys of the event object's shape 1 (0068_event_object_values.sql), in the order of its values. */
export const SUGGESTION_SHAPE_1_KEYS = [
  'id',
  'content',
  'status',
  'priority',
  'sentiment',
  'sentiment_score',
  'language',
  'sentiment_lexicon',
  'customer_name',
  'customer_email',
  'upvote_count',
  'tags',
  'is_anonymous',
  'visibility',
  'review_state',
  'location_id',
  'created_at',
  'updated_at',
  'reply',
  'follower_count',
  'merged_into',
] as const;

/** Whether the object's fields are still those of shape 1: if not, events store the whole object. */
const SHAPE_1 =
  Object.keys(OBJECT_FIELDS).length === SUGGESTION_SHAPE_1_KEYS.length &&
  SUGGESTION_SHAPE_1_KEYS.every((key, i) => Object.keys(OBJECT_FIELDS)[i] === key);

/**
 * The `eventData` and `eventObject` of recordsSql for an event of a suggestion's own statement: the
 * object as its values in shape 1's order (about half the row of a create's or a vote's event), and
 * `changes` (SQL, jsonb) when given. Shapes 2 and 3 (0075_vote_records_implied.sql) are shape 1 with
 * `changes` implied by the object, so the row stores no `data`. Should the object's fields change
 * without a new shape, the whole object is stored as before; test/api/events.test.ts fails then, to
 * have the shape added.
 */
export function suggestionEventSql(
  changes: string | null,
  shape: 1 | 2 | 3 = 1,
): { eventData: string; eventObject?: EventObjectSql } {
  const whole = `jsonb_build_object('object', ${SUGGESTION_OBJECT_SQL}${changes ? `, 'changes', ${changes}` : ''})`;
  if (!SHAPE_1) return { eventData: whole };
  return {
    // a create's `{}` is what event_data() reads for a null `data` too
    eventData: changes && shape === 1 ? `jsonb_build_object('changes', ${changes})` : 'NULL',
    eventObject: {
      shape,
      values: `jsonb_build_array(${SUGGESTION_SHAPE_1_KEYS.map((k) => OBJECT_FIELDS[k]).join(', ')})`,
      whole,
    },
  };
}

/**
 * The event of a vote (`delta` 1, shape 2) or of a vote taken back (-1, shape 3): its change is the
 * count from one less or one more to the object's, which event_data() puts back from the object. A
 * vote moves the count by exactly one; should the object's fields change, the vote's shapes need their
 * new numbers too, beside the new shape of the other events.
 */
export function suggestionVoteEventSql(delta: 1 | -1): { eventData: string; eventObject?: EventObjectSql } {
  const changes = `jsonb_build_object('upvote_count', jsonb_build_object('from', upvote_count - (${delta}), 'to', upvote_count))`;
  return suggestionEventSql(changes, delta === 1 ? 2 : 3);
}

export interface SuggestionFilter extends ListFilter {
  status?: SuggestionStatus;
  priority?: Priority;
  sentiment?: Sentiment;
  /** The content's detected language (ISO 639-1): counted on the rows. */
  lang?: string;
  /** The dashboard's inbox only (the API's lists do not offer these): counted on the rows. */
  visibility?: Visibility;
  reviewState?: ReviewState;
  locationId?: string;
  /** Also merged suggestions (hidden by default): then counted on the rows, as the counters leave them out. */
  include_merged?: boolean;
  /** Tag names as the items carry them (tagFilterOf): every one must match. */
  tag?: string[];
}

const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  priority: 'priority',
  status: 'status',
  upvote_count: 'rank_votes',
  sentiment_score: 'sentiment_score',
} as const;

const suggestions = defineListing<SuggestionRow, SuggestionFilter, keyof typeof SORT_COLUMNS>({
  entity: 'suggestion',
  columns: COLUMNS,
  filters: {
    // keys of the lookup GIN, no btree each (0065_filter_keys_in_lookup.sql): planned for the value, so
    // a common one walks the creation-time index and a rare one reads its GIN keys
    status: ['status = ?', 'key', 'per-value'],
    priority: ['priority = ?', 'key', 'per-value'],
    sentiment: ['sentiment = ?', 'key', 'per-value'],
    lang: ['language = ?', 'rows', 'per-value'],
    visibility: ['visibility = ?', 'rows'],
    reviewState: ['review_state = ?', 'rows'],
    locationId: ['location_id = ?', 'rows'],
    include_merged: ['(merged_into IS NULL OR ?::boolean)', 'shown'],
    tag: [TAG_CONDITION, 'tag', 'per-value'],
    ...LIST_FILTER_FIELDS,
  },
  sortColumns: SORT_COLUMNS,
  // no index of suggestions holds the count, so a vote's update stays HOT (0064_suggestion_ranks.sql):
  // the order by votes is suggestion_ranks' index, the same count kept in the same statement, by which
  // a suggestion's rank is also found (0079: the ranks have no key of their own)
  sortSources: {
    upvote_count: /* sql */ `(
      SELECT s.*, r.upvote_count AS rank_votes
      FROM suggestions s
      JOIN suggestion_ranks r
        ON r.business_id = s.business_id
        AND r.upvote_count = s.upvote_count
        AND r.suggestion_id = s.id
    ) AS suggestions`,
  },
  // the list fields of spec 4.2, as exports read them (value arrays) and write them out as they come;
  // an export also marks merged suggestions
  recordFields: { ...fieldSqlOf(COLUMN_MAP, ['list']), merged_into: 'merged_into' },
});

/** What a list's `sort` accepts (suggestion.schemas.ts). */
export const SUGGESTION_SORTS = suggestions.sorts;
export type SuggestionSort = (typeof SUGGESTION_SORTS)[number];

export const SUGGESTION_LIST_FIELDS = suggestions.recordFields;
export const selectSuggestionRecords = suggestions.selectRecords;
export const countSuggestions = suggestions.count;
export const findSuggestionPage = suggestions.findPage;
export const findSuggestion = suggestions.find;

export interface NewSuggestionRow {
  id: string;
  content: string;
  status: SuggestionStatus;
  priority: Priority;
  sentiment: Sentiment;
  sentimentScore: number;
  language: string | null;
  sentimentLexicon: string | null;
  customerName: string | null;
  customerEmail: string | null;
  isAnonymous: boolean;
  visibility: Visibility;
  /** `if_approval_required`: pending when the business requires approval, else not_required (read by the insert). */
  reviewState: ReviewState | 'if_approval_required';
  locationId: string | null;
  source: EntrySource;
  /** Resolved names, sorted (resolveTagNames); none when absent. */
  tags?: string[];
}

/**
 * Inserts a suggestion with its records (the event's object read from the new row) in one statement:
 * no transaction of its own, one round trip. Null, and nothing written, when `locationId` names no
 * location of the business.
 */
export async function insertRecordedSuggestion(
  db: Queryable,
  businessId: string,
  s: NewSuggestionRow,
  records: Records,
): Promise<{ row: SuggestionRow; queued: number } | null> {
  const params: unknown[] = [
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
    s.tags ?? [],
    s.language,
    s.sentimentLexicon,
  ];
  const recorded = recordsSql('$2::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    // what the suggestion was created with is its event's object: the activity repeats none of it
    activityData: 'NULL',
    ...suggestionEventSql(null),
  });
  const { rows } = await db.query<SuggestionRow & { queued: number }>(
    /* sql */ `
    WITH changed AS (
      INSERT INTO suggestions (id, business_id, content, status, priority, sentiment, sentiment_score, customer_name,
        customer_email, is_anonymous, visibility, review_state, location_id, source, tags, language, sentiment_lexicon)
      SELECT $1, b.id, $3, $4, $5, $6, $7, $8, $9, $10, $11,
        CASE
          WHEN $12::text <> 'if_approval_required' THEN $12::text
          WHEN b.approval_required THEN 'pending'
          ELSE 'not_required'
        END::review_state,
        $13, $14, $15::text[], $16, $17
      FROM businesses b
      WHERE b.id = $2
        AND ($13::uuid IS NULL OR EXISTS (
          SELECT 1
          FROM locations l
          WHERE l.business_id = $2
            AND l.id = $13::uuid))
      RETURNING ${COLUMNS}
    )${andRecordsSql(recorded)}
    SELECT ${COLUMNS}, ${queuedSql(records)} AS queued
    FROM changed`,
    params,
  );
  return recordedRow(rows);
}

export interface SuggestionChanges {
  status?: SuggestionStatus;
  priority?: Priority;
  visibility?: Visibility;
  reviewState?: ReviewState;
  /** The whole new set, resolved and sorted; absent keeps it. */
  tags?: string[];
}

/**
 * Changes a suggestion and stamps updated_at, unchanged fields keeping their value through COALESCE,
 * with its records in the same statement (the activity's data and
 * the event's changes given, the event's object read from the changed row). Null when there is no such
 * suggestion.
 */
export async function updateRecordedSuggestion(
  db: Queryable,
  businessId: string,
  id: string,
  changes: SuggestionChanges,
  records: Records,
  recordedData: { activity: Record<string, unknown>; changes: Record<string, unknown> },
): Promise<{ row: SuggestionRow; queued: number } | null> {
  const params: unknown[] = [
    businessId,
    id,
    changes.status ?? null,
    changes.priority ?? null,
    changes.visibility ?? null,
    changes.reviewState ?? null,
    JSON.stringify(recordedData.activity),
    JSON.stringify(recordedData.changes),
    changes.tags ?? null,
  ];
  const recorded = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    activityData: '$7::jsonb',
    ...suggestionEventSql('$8::jsonb'),
  });
  const { rows } = await db.query<SuggestionRow & { queued: number }>(
    /* sql */ `
    WITH changed AS (
      UPDATE suggestions
      SET status = COALESCE($3, status),
          -- the roadmap's "completed in the last 90 days" counts from here (0078: no trigger stamps it)
          status_changed_at = CASE
            WHEN COALESCE($3, status) IS DISTINCT FROM status THEN date_trunc('milliseconds', clock_timestamp())
            ELSE status_changed_at
          END,
          priority = COALESCE($4, priority),
          visibility = COALESCE($5, visibility),
          review_state = COALESCE($6, review_state),
          tags = COALESCE($9::text[], tags),
          updated_at = clock_timestamp()
      WHERE business_id = $1
        AND id = $2
      RETURNING ${COLUMNS}
    ),
    ${recorded}
    SELECT ${COLUMNS}, ${queuedSql(records)} AS queued
    FROM changed`,
    params,
  );
  return recordedRow(rows);
}
