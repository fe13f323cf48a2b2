import type { Queryable } from '../db/database.js';

export interface LogoRow {
  hash: string;
  content_type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

export interface LogoBytes {
  content_type: LogoRow['content_type'];
  body: Buffer;
}

/** One logo per business: a new one replaces the old (its address changes with its hash). */
export async function upsertLogo(
  db: Queryable,
  businessId: string,
  logo: LogoRow & { body: Buffer },
): Promise<LogoRow> {
  const { rows } = await db.query<LogoRow>(
    /* sql */ `
    INSERT INTO business_logos (business_id, hash, content_type, width, height, body)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (business_id) DO UPDATE
    SET hash = excluded.hash,
      content_type = excluded.content_type,
      width = excluded.width,
      height = excluded.height,
      body = excluded.body,
      updated_at = now()
    RETURNING hash, content_type, width, height`,
    [businessId, logo.hash, logo.content_type, logo.width, logo.height, logo.body],
  );
  return rows[0]!;
}

export async function deleteLogo(db: Queryable, businessId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM business_logos
    WHERE business_id = $1`,
    [businessId],
  );
  return (rowCount ?? 0) > 0;
}

export async function findLogo(db: Queryable, businessId: string): Promise<LogoRow | null> {
  const { rows } = await db.query<LogoRow>(
    /* sql */ `
    SELECT hash, content_type, width, height
    FROM business_logos
    WHERE business_id = $1`,
    [businessId],
  );
  return rows[0] ?? null;
}

/** The bytes behind a logo's address: only while that hash is the business's logo. */
export async function findLogoBytes(db: Queryable, businessId: string, hash: string): Promise<LogoBytes | null> {
  const { rows } = await db.query<LogoBytes>(
    /* sql */ `
    SELECT content_type, body
    FROM business_logos
    WHERE business_id = $1
      AND hash = $2`,
    [businessId, hash],
  );
  return rows[0] ?? null;
}

/** A logo's change is the business's: its change number moves, so kept pages show the new one. */
export async function touchBusiness(db: Queryable, businessId: string): Promise<void> {
  await db.query('UPDATE businesses SET updated_at = now() WHERE id = $1', [businessId]);
}
