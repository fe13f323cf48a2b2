import type { Queryable } from '../db/database.js';
import type { ImportKind } from './import.rows.js';

/**
 * Bulk inserts as the seed's (src/seed/seed.repository.ts): one statement per batch, each column one
 * array turned back into rows by unnest, so a batch costs one round trip and one firing of the counting
 * triggers (which keep every total exact). A row whose key the business already holds, or whose
 * export id names one of its items, is left out by ON CONFLICT and NOT EXISTS: the returned count is
 * what was created, the rest skipped. One statement serves both kinds; what differs is their table
 * and their own columns.
 */

/**
 * How a column's values travel: the SQL type of its array's elements, or `instant` (milliseconds
 * since the epoch, made a timestamptz) or `tags` (each row's tags as a Postgres array literal: unnest
 * cannot take an array of arrays of any length).
 */
type ColumnType =
  'instant' | 'tags' | 'uuid' | 'text' | 'integer' | 'real' | 'priority' | 'sentiment' | `${string}_status`;

/** Every kind's columns: identity, re-import key, the export id it came from, customer, tags, date. */
const SHARED_COLUMNS = {
  id: 'uuid',
  import_key: 'text',
  /** Not written: an item of the business with this id means the row was imported already. */
  source_id: 'uuid',
  customer_name: 'text',
  customer_email: 'text',
  tags: 'tags',
  created_at: 'instant',
} as const satisfies Record<string, ColumnType>;

/** Each kind's table's own columns; language (and for suggestions sentiment) computed as a create does. */
const OWN_COLUMNS = {
  suggestions: {
    content: 'text',
    status: 'suggestion_status',
    priority: 'priority',
    sentiment: 'sentiment',
    sentiment_score: 'real',
    language: 'text',
    sentiment_lexicon: 'text',
    upvote_count: 'integer',
  },
  issues: {
    title: 'text',
    description: 'text',
    status: 'issue_status',
    priority: 'priority',
    language: 'text',
    resolved_at: 'instant',
  },
} as const satisfies Record<ImportKind, Record<string, ColumnType>>;

/** A batch of `kind`: every column's values, one per row, in the same order. */
export type SharedColumns = typeof SHARED_COLUMNS;
export type ImportBatch<K extends ImportKind> = Record<
  keyof SharedColumns | keyof (typeof OWN_COLUMNS)[K],
  readonly unknown[]
>;

const EPOCH_MS = /* sql */ `timestamptz 'epoch' + interval '1 millisecond' *`;

const arrayType = (type: ColumnType) => (type === 'instant' ? 'bigint' : type === 'tags' ? 'text' : type);
const valueOf = (name: string, type: ColumnType) =>
  type === 'instant' ? `${EPOCH_MS} t.${name}` : type === 'tags' ? `t.${name}::text[]` : `t.${name}`;

/** The batch statement of a kind, built once from constants: only values travel as parameters. */
function insertStatement(kind: ImportKind): { sql: string; names: string[] } {
  const columns: Record<string, ColumnType> = { ...SHARED_COLUMNS, ...OWN_COLUMNS[kind] };
  const names = Object.keys(columns);
  const written = names.filter((name) => name !== 'source_id');
  const sql = /* sql */ `
    INSERT INTO ${kind} (business_id, is_anonymous, source, updated_at, ${written.join(', ')})
    SELECT $1, t.customer_name IS NULL AND t.customer_email IS NULL, 'import', ${EPOCH_MS} t.created_at,
      ${written.map((name) => valueOf(name, columns[name]!)).join(', ')}
    FROM unnest(${names.map((name, i) => `$${i + 2}::${arrayType(columns[name]!)}[]`).join(', ')})
      AS t (${names.join(', ')})
    WHERE NOT EXISTS (
      SELECT 1
      FROM ${kind} x
      WHERE x.business_id = $1
        AND x.id = t.source_id)
    ON CONFLICT (business_id, import_key) WHERE import_key IS NOT NULL DO NOTHING`;
  return { sql, names };
}

const STATEMENTS = { suggestions: insertStatement('suggestions'), issues: insertStatement('issues') };

/** Writes a batch of either kind; answers how many rows it created (the others were imported before). */
export async function insertImportedBatch<K extends ImportKind>(
  db: Queryable,
  businessId: string,
  kind: K,
  batch: ImportBatch<K>,
): Promise<number> {
  const { sql, names } = STATEMENTS[kind];
  const columns = batch as Record<string, readonly unknown[]>;
  const { rowCount } = await db.query(sql, [businessId, ...names.map((name) => columns[name])]);
  return rowCount ?? 0;
}

/**
 * Makes the tags a batch names that the business lacks (the default colour, not public), and answers
 * every name in the tags' own spelling, by its lower case: items carry the tag's spelling.
 */
export async function ensureTags(
  db: Queryable,
  businessId: string,
  names: string[],
  ids: string[],
  color: string,
): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  await db.query(
    /* sql */ `
    INSERT INTO tags (id, business_id, name, color)
    SELECT t.id, $1, t.name, $4
    FROM unnest($2::uuid[], $3::text[]) AS t (id, name)
    ORDER BY lower(t.name)
    ON CONFLICT (business_id, lower(name)) DO NOTHING`,
    [businessId, ids, names, color],
  );
  const { rows } = await db.query<{ name: string }>(
    /* sql */ `
    SELECT name
    FROM tags
    WHERE business_id = $1
      AND lower(name) = ANY (SELECT lower(n) FROM unnest($2::text[]) AS n)`,
    [businessId, names],
  );
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.name]));
}
