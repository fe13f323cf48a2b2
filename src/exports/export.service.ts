import type pg from 'pg';
import type { Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { SqlQuery } from '../db/where.js';
import { countIssues, ISSUE_LIST_FIELDS, selectIssueRecords, type IssueFilter } from '../issues/issue.repository.js';
import {
  countSuggestions,
  selectSuggestionRecords,
  SUGGESTION_LIST_FIELDS,
  type SuggestionFilter,
} from '../suggestions/suggestion.repository.js';
import { openSnapshotCursor, type SnapshotOutcome } from './export.cursor.js';
import type { ExportRecord } from './export.encoder.js';
import { EXPORT_LIMIT } from './export.schemas.js';

/**
 * What an export needs from a resource: its list fields and the list's query reading exactly them,
 * and the list's count. The records are what the list presenter shows, read as value arrays (the
 * tests hold the two together): at ten thousand rows, an object per row is most of the cost.
 */
export interface ExportResource<Filter> {
  /** Plural, as in the path and the CSV file name. */
  name: 'suggestions' | 'issues';
  /** The list fields in the spec's order: CSV columns, JSON keys, and the order of every record. */
  fields: readonly string[];
  select(businessId: string, filter: Filter, page: PageRequest<'created_at'>): SqlQuery;
  count(db: Queryable, businessId: string, filter: Filter): Promise<number>;
}

export const suggestionExport: ExportResource<SuggestionFilter> = {
  name: 'suggestions',
  fields: SUGGESTION_LIST_FIELDS,
  select: selectSuggestionRecords,
  count: countSuggestions,
};

export const issueExport: ExportResource<IssueFilter> = {
  name: 'issues',
  fields: ISSUE_LIST_FIELDS,
  select: selectIssueRecords,
  count: countIssues,
};

/** Newest first, id breaking ties, capped: the export is the first "page" of the list, 10,000 long. */
export const NEWEST_FIRST: PageRequest<'created_at'> = {
  sort: 'created_at',
  order: 'desc',
  limit: EXPORT_LIMIT,
  offset: 0,
};

export interface ExportRun {
  /** Every matching record, including those past the cap. */
  readonly total: number;
  readonly truncated: boolean;
  readonly exportedAt: Date;
  /** The next batch of records; empty at the end. */
  read(): Promise<ExportRecord[]>;
  /** Releases the database connection; `rollback` when the export did not run to its end. */
  close(outcome: SnapshotOutcome): Promise<void>;
}

/**
 * Counts the matching records and opens a cursor over the first EXPORT_LIMIT of them, newest first.
 * Anything that fails here fails before a byte is sent, so it is still an ordinary error response.
 */
export async function openExport<Filter>(
  pool: pg.Pool,
  resource: ExportResource<Filter>,
  businessId: string,
  filter: Filter,
): Promise<ExportRun> {
  const exportedAt = new Date();
  const snapshot = await openSnapshotCursor(
    pool,
    (db) => resource.count(db, businessId, filter),
    resource.select(businessId, filter, NEWEST_FIRST),
  );
  return {
    total: snapshot.total,
    truncated: snapshot.total > EXPORT_LIMIT,
    exportedAt,
    read: () => snapshot.read(),
    close: (outcome) => snapshot.close(outcome),
  };
}
