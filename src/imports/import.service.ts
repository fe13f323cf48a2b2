import type { Readable } from 'node:stream';
import type pg from 'pg';
import type { Principal } from '../auth/principal.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { recordActivity } from '../outbox/outbox.service.js';
import { newId } from '../shared/ids.js';
import { issueLanguage } from '../issues/issue-language.js';
import { detectLanguage } from '../suggestions/language.js';
import { analyzeSentiment } from '../suggestions/sentiment.js';
import { DEFAULT_TAG_COLOR } from '../tags/tag.schemas.js';
import { ensureTags, insertImportedBatch, type ImportBatch, type SharedColumns } from './import.repository.js';
import {
  planColumns,
  readRow,
  type ColumnPlan,
  type ImportedRow,
  type ImportKind,
  type RowError,
} from './import.rows.js';
import type { ImportRequest } from './import.schemas.js';
import { csvFailure, csvRecords } from './import.stream.js';

/** Rows written per statement: the seed's order of size, bounded so a batch's arrays stay small. */
export const IMPORT_BATCH_SIZE = 2_000;
/** The report names at most this many errors (`failed` counts every refused row). */
export const MAX_REPORTED_ERRORS = 1_000;

export interface ImportReport {
  kind: ImportKind;
  dry_run: boolean;
  /** Records below the header. */
  rows: number;
  created: number;
  /** Rows already imported (their key is the business's): re-importing a file creates nothing. */
  skipped: number;
  /** Rows refused for their errors. */
  failed: number;
  /** Headers no field reads, and no mapping names. */
  unknown_columns: string[];
  errors: RowError[];
}

/** Thrown inside the transaction to roll it back: a dry run, or all-or-nothing with errors. */
class RolledBack extends Error {}

const arrayLiteral = (names: string[]) => `{${names.map((n) => `"${n.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

type ItemOf<K extends ImportKind> = Extract<ImportedRow, { kind: K }>['item'];

/**
 * Each kind's own columns from its items: defaults where a cell was empty, and language (and for
 * suggestions the sentiment and its lexicon) computed as a create computes them.
 */
const OWN_VALUES: { [K in ImportKind]: (items: ItemOf<K>[]) => Omit<ImportBatch<K>, keyof SharedColumns> } = {
  suggestions(items) {
    const languages = items.map((item) => detectLanguage(item.content));
    const moods = items.map((item, i) => analyzeSentiment(item.content, languages[i] ?? null));
    return {
      content: items.map((item) => item.content),
      status: items.map((item) => item.status ?? 'pending'),
      priority: items.map((item) => item.priority ?? 'medium'),
      sentiment: moods.map((mood) => mood.sentiment),
      sentiment_score: moods.map((mood) => mood.score),
      language: languages,
      sentiment_lexicon: moods.map((mood) => mood.lexicon),
      upvote_count: items.map((item) => item.upvote_count ?? 0),
    };
  },
  issues(items) {
    const descriptions = items.map((item) => item.description ?? '');
    return {
      title: items.map((item) => item.title),
      description: descriptions,
      status: items.map((item) => item.status ?? 'open'),
      priority: items.map((item) => item.priority ?? 'medium'),
      language: items.map((item, i) => issueLanguage(item.title, descriptions[i]!)),
      resolved_at: items.map((item) => item.resolved_at?.getTime() ?? null),
    };
  },
};

/** A batch of rows to the repository's columns, tags in the business's spelling (created as needed). */
async function writeBatch(db: Queryable, businessId: string, kind: ImportKind, rows: ImportedRow[]): Promise<number> {
  const wanted = new Map<string, string>();
  for (const row of rows) for (const name of row.item.tags ?? []) wanted.set(name.toLowerCase(), name);
  const names = [...wanted.values()];
  const spelling = await ensureTags(db, businessId, names, names.map(newId), DEFAULT_TAG_COLOR);
  const tagsOf = (row: ImportedRow) =>
    arrayLiteral([...new Set((row.item.tags ?? []).map((n) => spelling.get(n.toLowerCase()) ?? n))].sort());
  const shared: Record<keyof SharedColumns, unknown[]> = {
    id: rows.map(() => newId()),
    import_key: rows.map((row) => row.key),
    source_id: rows.map((row) => row.item.id ?? null),
    customer_name: rows.map((row) => row.item.customer_name ?? null),
    customer_email: rows.map((row) => row.item.customer_email ?? null),
    tags: rows.map(tagsOf),
    created_at: rows.map((row) => (row.item.created_at ?? new Date()).getTime()),
  };
  // every row is of the request's kind (readRow reads them so)
  const ownValues = OWN_VALUES[kind] as (
    items: ImportedRow['item'][],
  ) => Omit<ImportBatch<typeof kind>, keyof SharedColumns>;
  return insertImportedBatch(db, businessId, kind, { ...shared, ...ownValues(rows.map((row) => row.item)) });
}

/**
 * Imports a CSV body into the principal's business, in one transaction: records are read as they
 * stream in and written in batches (the counting triggers keep every total exact per statement).
 * All or nothing by default: once a row has errors nothing more is written and the transaction rolls
 * back at the end, the rest of the file still read for its errors. `skip` writes the good rows; a dry
 * run writes them too, for exact counts, and rolls back. One `import.completed` event when it commits,
 * no event per item.
 */
export async function importCsv(
  pool: pg.Pool,
  principal: Principal,
  source: Readable,
  request: ImportRequest,
  maxBytes: number,
): Promise<ImportReport> {
  const { kind, onError, dryRun, columns } = request;
  const report: ImportReport = {
    kind,
    dry_run: dryRun,
    rows: 0,
    created: 0,
    skipped: 0,
    failed: 0,
    unknown_columns: [],
    errors: [],
  };
  let plan: ColumnPlan = { headerOf: {}, unknown: [] };
  const records = csvRecords(source, maxBytes, (headers) => {
    plan = planColumns(kind, headers, columns);
    report.unknown_columns = plan.unknown;
  });
  const businessId = principal.businessId;
  try {
    await withTransaction(pool, async (tx) => {
      let batch: ImportedRow[] = [];
      // One batch is written while the next is parsed: the two take turns on the CPU and the database.
      let writing: Promise<void> = Promise.resolve();
      const flush = async () => {
        const rows = batch;
        batch = [];
        await writing;
        if (rows.length === 0 || (onError === 'all' && report.failed > 0)) return;
        writing = writeBatch(tx, businessId, kind, rows).then((created) => {
          report.created += created;
          report.skipped += rows.length - created;
        });
        // a failed write is the import's failure, seen at the next flush or the end
        writing.catch(() => undefined);
      };
      for await (const record of records as AsyncIterable<Record<string, string>>) {
        report.rows += 1;
        const read = readRow(kind, plan, record, report.rows + 1);
        if ('errors' in read) {
          report.failed += 1;
          report.errors.push(...read.errors.slice(0, MAX_REPORTED_ERRORS - report.errors.length));
          continue;
        }
        batch.push(read.ok);
        if (batch.length >= IMPORT_BATCH_SIZE) await flush();
      }
      await flush();
      await writing;
      if (dryRun || (onError === 'all' && report.failed > 0)) throw new RolledBack();
      await recordActivity(tx, principal, {
        type: 'import.completed',
        entityType: 'business',
        entityId: businessId,
        data: { kind, rows: report.rows, created: report.created, skipped: report.skipped, failed: report.failed },
        publish: { object: report },
      });
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw csvFailure(err);
    if (onError === 'all' && report.failed > 0) report.created = 0;
  }
  return report;
}
