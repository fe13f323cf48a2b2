import type pg from 'pg';
import type { Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { SqlQuery } from '../db/where.js';
import { toIssueListItem } from '../issues/issue.presenter.js';
import { countIssues, selectIssues, type IssueFilter, type IssueRow } from '../issues/issue.repository.js';
import { toSuggestionListItem } from '../suggestions/suggestion.presenter.js';
import {
  countSuggestions,
  selectSuggestions,
  type SuggestionFilter,
  type SuggestionRow,
} from '../suggestions/suggestion.repository.js';
import { openSnapshotCursor, type SnapshotOutcome } from './export.cursor.js';
import { EXPORT_LIMIT } from './export.schemas.js';

/** What an export needs from a resource: the list's query, count and presenter, and the CSV columns. */
export interface ExportResource<Filter, Row, Item> {
  /** Plural, as in the path and the CSV file name. */
  name: 'suggestions' | 'issues';
  select(businessId: string, filter: Filter, page: PageRequest<'created_at'>): SqlQuery;
  count(db: Queryable, businessId: string, filter: Filter): Promise<number>;
  present(row: Row): Item;
  /** The list fields in the spec's order (the presenter's order: the tests hold the two together). */
  columns: readonly (keyof Item & string)[];
}

type SuggestionItem = ReturnType<typeof toSuggestionListItem>;
type IssueItem = ReturnType<typeof toIssueListItem>;

export const suggestionExport: ExportResource<SuggestionFilter, SuggestionRow, SuggestionItem> = {
  name: 'suggestions',
  select: selectSuggestions,
  count: countSuggestions,
  present: toSuggestionListItem,
  columns: [
    'id',
    'content',
    'status',
    'priority',
    'sentiment',
    'sentiment_score',
    'customer_name',
    'customer_email',
    'upvote_count',
    'created_at',
    'updated_at',
  ],
};

export const issueExport: ExportResource<IssueFilter, IssueRow, IssueItem> = {
  name: 'issues',
  select: selectIssues,
  count: countIssues,
  present: toIssueListItem,
  columns: [
    'id',
    'title',
    'description',
    'status',
    'priority',
    'assignee_id',
    'customer_name',
    'customer_email',
    'resolved_at',
    'created_at',
    'updated_at',
  ],
};

/** Newest first, id breaking ties, capped: the export is the first "page" of the list, 10,000 long. */
const NEWEST_FIRST: PageRequest<'created_at'> = { sort: 'created_at', order: 'desc', limit: EXPORT_LIMIT, offset: 0 };

export interface ExportRun<Item> {
  /** Every matching record, including those past the cap. */
  readonly total: number;
  readonly truncated: boolean;
  readonly exportedAt: Date;
  /** The next batch of presented items; empty at the end. */
  read(): Promise<Item[]>;
  /** Releases the database connection; `rollback` when the export did not run to its end. */
  close(outcome: SnapshotOutcome): Promise<void>;
}

/**
 * Counts the matching records and opens a cursor over the first EXPORT_LIMIT of them, newest first.
 * Anything that fails here fails before a byte is sent, so it is still an ordinary error response.
 */
export async function openExport<Filter, Row, Item>(
  pool: pg.Pool,
  resource: ExportResource<Filter, Row, Item>,
  businessId: string,
  filter: Filter,
): Promise<ExportRun<Item>> {
  const exportedAt = new Date();
  const snapshot = await openSnapshotCursor<Row>(
    pool,
    (db) => resource.count(db, businessId, filter),
    resource.select(businessId, filter, NEWEST_FIRST),
  );
  return {
    total: snapshot.total,
    truncated: snapshot.total > EXPORT_LIMIT,
    exportedAt,
    read: async () => (await snapshot.read()).map((row) => resource.present(row)),
    close: (outcome) => snapshot.close(outcome),
  };
}
