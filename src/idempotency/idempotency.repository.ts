import type { Queryable } from '../db/database.js';

export interface StoredResponse {
  status: number;
  contentType: string | null;
  location: string | null;
  body: string | null;
}

export interface IdempotencyRow {
  fingerprint: Buffer;
  status: number;
  content_type: string | null;
  location: string | null;
  body: string | null;
}

/**
 * Holds the key's scope until the transaction ends, or answers false at once when another
 * transaction holds it: the lock is the "still running" state, and a crash releases it.
 */
export async function tryLockScope(db: Queryable, scope: Buffer): Promise<boolean> {
  const { rows } = await db.query<{ locked: boolean }>(
    /* sql */ `
    SELECT pg_try_advisory_xact_lock($1) AS locked`,
    [scope.readBigInt64BE(0).toString()],
  );
  return rows[0]?.locked === true;
}

/** The stored response of a key, unless it is older than `since`. */
export async function findIdempotencyRow(db: Queryable, scope: Buffer, since: Date): Promise<IdempotencyRow | null> {
  const { rows } = await db.query<IdempotencyRow>(
    /* sql */ `
    SELECT fingerprint, status, content_type, location, body
    FROM idempotency_keys
    WHERE scope = $1
      AND created_at > $2`,
    [scope, since],
  );
  return rows[0] ?? null;
}

/** Stores a response; an expired row of the same scope is replaced, a live one kept. */
export async function insertIdempotencyRow(
  db: Queryable,
  scope: Buffer,
  fingerprint: Buffer,
  response: StoredResponse,
  now: Date,
  since: Date,
): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO idempotency_keys (scope, fingerprint, status, content_type, location, body, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (scope) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint,
        status = EXCLUDED.status,
        content_type = EXCLUDED.content_type,
        location = EXCLUDED.location,
        body = EXCLUDED.body,
        created_at = EXCLUDED.created_at
    WHERE idempotency_keys.created_at <= $8`,
    [scope, fingerprint, response.status, response.contentType, response.location, response.body, now, since],
  );
}

/** Deletes up to `limit` of the rows older than `before`, oldest first; answers how many. */
export async function deleteExpiredIdempotencyRows(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM idempotency_keys
    WHERE scope IN (
      SELECT scope
      FROM idempotency_keys
      WHERE created_at <= $1
      ORDER BY created_at
      LIMIT $2
    )`,
    [before, limit],
  );
  return rowCount ?? 0;
}
