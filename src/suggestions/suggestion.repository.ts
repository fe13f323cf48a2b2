import { defineListing, LIST_FILTER_FIELDS, type ListFilter } from '../counts/listing.js';
import { isoText } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import type { EntrySource, Priority, Sentiment, SuggestionStatus, Visibility } from '../shared/schemas.js';

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
};

export interface SuggestionFilter extends ListFilter {
  status?: SuggestionStatus;
  priority?: Priority;
  sentiment?: Sentiment;
}

const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  priority: 'priority',
  status: 'status',
  upvote_count: 'upvote_count',
  sentiment_score: 'sentiment_score',
} as const;

const suggestions = defineListing<SuggestionRow, SuggestionFilter, keyof typeof SORT_COLUMNS>({
  entity: 'suggestion',
  columns: COLUMNS,
  filters: {
    status: ['status = ?', 'key'],
    priority: ['priority = ?', 'key'],
    sentiment: ['sentiment = ?', 'key'],
    ...LIST_FILTER_FIELDS,
  },
  sortColumns: SORT_COLUMNS,
  recordFields: LIST_FIELD_SQL,
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
  customerName: string | null;
  customerEmail: string | null;
  isAnonymous: boolean;
  visibility: Visibility;
  reviewState: ReviewState;
  locationId: string | null;
  source: EntrySource;
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
export function updateSuggestion(
  db: Queryable,
  businessId: string,
  id: string,
  changes: SuggestionChanges,
): Promise<SuggestionRow | null> {
  return suggestions.update(
    db,
    businessId,
    id,
    /* sql */ `status = COALESCE($3, status),
        priority = COALESCE($4, priority),
        visibility = COALESCE($5, visibility),
        review_state = COALESCE($6, review_state)`,
    [changes.status ?? null, changes.priority ?? null, changes.visibility ?? null, changes.reviewState ?? null],
  );
}
