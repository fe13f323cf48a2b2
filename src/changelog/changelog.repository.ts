import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { findPageWithTotal, type PageRequest } from '../db/paging.js';
import { resourceTable } from '../db/resource-table.js';
import { CHANGELOG_COLUMN_MAP, type ChangelogEntryRow } from './changelog.columns.js';

export type { ChangelogEntryRow };

const COLUMNS = columnList(CHANGELOG_COLUMN_MAP);

/** Drafts first (the ones being written), then the published ones, newest first: the dashboard's order. */
export const CHANGELOG = resourceTable<ChangelogEntryRow, 'created_at'>({
  table: 'changelog_entries',
  columns: COLUMNS,
  resource: 'Changelog entry',
  sorts: { created_at: '(published_at IS NOT NULL), COALESCE(published_at, created_at)' },
});

/** One published entry of the business, or null (a draft is never shown to a key or a visitor). */
export async function findPublishedEntry(
  db: Queryable,
  businessId: string,
  id: string,
): Promise<ChangelogEntryRow | null> {
  const { rows } = await db.query<ChangelogEntryRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM changelog_entries
    WHERE business_id = $1
      AND id = $2
      AND published_at IS NOT NULL`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

/** A page of the business's published entries, newest first (or oldest), and how many there are. */
export function findPublishedPage(
  db: Queryable,
  businessId: string,
  page: Pick<PageRequest, 'order' | 'limit' | 'offset'>,
): Promise<{ rows: ChangelogEntryRow[]; total: number }> {
  const direction = page.order === 'asc' ? 'ASC' : 'DESC';
  return findPageWithTotal<ChangelogEntryRow>(
    db,
    /* sql */ `
    SELECT count(*) AS total
    FROM changelog_entries
    WHERE business_id = $1
      AND published_at IS NOT NULL`,
    {
      sql: /* sql */ `
      SELECT ${COLUMNS}
      FROM changelog_entries
      WHERE business_id = $1
        AND published_at IS NOT NULL
      ORDER BY published_at ${direction}, id ${direction}
      LIMIT $2
      OFFSET $3`,
      params: [businessId, page.limit, page.offset],
    },
  );
}

/** The ids among `ids` that are not suggestions of the business. */
export async function findForeignSuggestionIds(db: Queryable, businessId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    /* sql */ `
    SELECT given.id
    FROM unnest($2::uuid[]) WITH ORDINALITY AS given (id, n)
    WHERE NOT EXISTS (
      SELECT 1
      FROM suggestions s
      WHERE s.business_id = $1
        AND s.id = given.id)
    ORDER BY given.n`,
    [businessId, ids],
  );
  return rows.map((row) => row.id);
}

export interface ChangelogWrite {
  title: string;
  body: string;
  bodyHtml: string;
  suggestionIds: string[];
}

export async function insertEntry(
  db: Queryable,
  businessId: string,
  entry: ChangelogWrite & { id: string },
): Promise<ChangelogEntryRow> {
  const { rows } = await db.query<ChangelogEntryRow>(
    /* sql */ `
    INSERT INTO changelog_entries (id, business_id, title, body, body_html, suggestion_ids)
    VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING ${COLUMNS}`,
    [entry.id, businessId, entry.title, entry.body, entry.bodyHtml, entry.suggestionIds],
  );
  return rows[0]!;
}

export async function updateEntry(
  db: Queryable,
  businessId: string,
  id: string,
  entry: ChangelogWrite,
): Promise<ChangelogEntryRow> {
  const { rows } = await db.query<ChangelogEntryRow>(
    /* sql */ `
    UPDATE changelog_entries
    SET title = $3,
        body = $4,
        body_html = $5,
        suggestion_ids = $6,
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id, entry.title, entry.body, entry.bodyHtml, entry.suggestionIds],
  );
  return rows[0]!;
}

/** Publishes a draft; null when it is not one (published already, or gone). */
export async function publishEntry(db: Queryable, businessId: string, id: string): Promise<ChangelogEntryRow | null> {
  const { rows } = await db.query<ChangelogEntryRow>(
    /* sql */ `
    UPDATE changelog_entries
    SET published_at = clock_timestamp(),
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
      AND published_at IS NULL
    RETURNING ${COLUMNS}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

export async function deleteEntry(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM changelog_entries
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}
