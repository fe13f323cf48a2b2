import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { resourceTable } from '../db/resource-table.js';
import { TAG_COLUMN_MAP, type TagRow } from './tag.columns.js';

export type { TagRow };

const COLUMNS = columnList(TAG_COLUMN_MAP);

/** The tables whose rows carry tags by name (migrations/0026_tags.sql): constants, never from a request. */
const TAGGED_TABLES = ['suggestions', 'issues'] as const;

/**
 * An item's tags in their one order, as SQL over a text[] expression: alphabetical ignoring case, by
 * code point (as sortTagNames in tag.service.ts orders the names it writes).
 */
const sortedSql = (names: string) => /* sql */ `ARRAY(
          SELECT n
          FROM unnest(${names}) AS n
          ORDER BY lower(n) COLLATE "C", n COLLATE "C")`;

/** One tag and every tag, alphabetically ignoring case, as every plain resource reads them. */
export const TAGS = resourceTable<TagRow, 'name'>({
  table: 'tags',
  columns: COLUMNS,
  resource: 'Tag',
  sorts: { name: 'lower(name)' },
});

export async function countTags(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT count(*) AS total
    FROM tags
    WHERE business_id = $1`,
    [businessId],
  );
  return rows[0]!.total;
}

/**
 * The business's tags named by `names`, ignoring case. `forShare` holds them until the transaction
 * ends, so a rename or a delete (which lock the tag for update first) cannot pass between reading a
 * name here and writing it onto an item.
 */
export async function findTagsByName(
  db: Queryable,
  businessId: string,
  names: readonly string[],
  { forShare = false } = {},
): Promise<TagRow[]> {
  const { rows } = await db.query<TagRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM tags
    WHERE business_id = $1
      AND lower(name) = ANY($2::text[])
    ORDER BY id
    ${forShare ? 'FOR SHARE' : ''}`,
    [businessId, names.map((name) => name.toLowerCase())],
  );
  return rows;
}

export async function insertTag(
  db: Queryable,
  businessId: string,
  tag: { id: string; name: string; color: string; public: boolean },
): Promise<TagRow> {
  const { rows } = await db.query<TagRow>(
    /* sql */ `
    INSERT INTO tags (id, business_id, name, color, public)
    VALUES ($1, $2, $3, $4, $5)
    RETURNING ${COLUMNS}`,
    [tag.id, businessId, tag.name, tag.color, tag.public],
  );
  return rows[0]!;
}

export async function updateTag(
  db: Queryable,
  businessId: string,
  id: string,
  tag: { name: string; color: string; public: boolean },
): Promise<TagRow | null> {
  const { rows } = await db.query<TagRow>(
    /* sql */ `
    UPDATE tags
    SET name = $3,
        color = $4,
        public = $5,
        updated_at = now()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id, tag.name, tag.color, tag.public],
  );
  return rows[0] ?? null;
}

/**
 * Writes a renamed tag's new spelling onto every item that carries it, keeping their order; their
 * other fields, updated_at included, stay as they are. The GIN index on (business_id, tags) finds them.
 */
export async function renameTagOnItems(db: Queryable, businessId: string, from: string, to: string): Promise<void> {
  for (const table of TAGGED_TABLES) {
    await db.query(
      /* sql */ `
      UPDATE ${table}
      SET tags = ${sortedSql('array_replace(tags, $2, $3)')}
      WHERE business_id = $1
        AND tags @> ARRAY[$2::text]`,
      [businessId, from, to],
    );
  }
}

/** Takes a deleted tag off every item that carries it; their other fields stay as they are. */
export async function removeTagFromItems(db: Queryable, businessId: string, name: string): Promise<void> {
  for (const table of TAGGED_TABLES) {
    await db.query(
      /* sql */ `
      UPDATE ${table}
      SET tags = array_remove(tags, $2)
      WHERE business_id = $1
        AND tags @> ARRAY[$2::text]`,
      [businessId, name],
    );
  }
}

export async function deleteTag(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM tags
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}
