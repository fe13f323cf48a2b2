import type pg from 'pg';
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
 * Opens the key's transaction and, in the same round trip, takes the key's lock and reads its stored
 * response. The lock holds the key's scope until the transaction ends, or is refused at once when
 * another transaction holds it: the lock is the "still running" state, and a crash releases it.
 *
 * A simple query may carry BEGIN and the lookup together, but takes no parameters: the values are
 * written as literals, each printed from the scope's digest and the clock, never from the request.
 * The lookup's snapshot is taken before the lock is granted, so a response committed by the lock's
 * previous holder in between is not seen here: `insertIdempotencyRow` finds it instead.
 */
export async function beginKeyed(
  client: pg.PoolClient,
  scope: Buffer,
  since: Date,
): Promise<{ locked: boolean; row: IdempotencyRow | null }> {
  const results = (await client.query(/* sql */ `
    BEGIN;
    SELECT pg_try_advisory_xact_lock(${scope.readBigInt64BE(0).toString()}) AS locked,
      k.fingerprint, k.status, k.content_type, k.location, k.body
    FROM (SELECT) AS one
    LEFT JOIN idempotency_keys AS k
      ON k.scope = '\\x${scope.toString('hex')}'::bytea
      AND k.created_at > '${since.toISOString()}'::timestamptz`)) as unknown as pg.QueryResult[];
  const found = results[1]?.rows[0] as (IdempotencyRow & { locked: boolean }) | undefined;
  const locked = found?.locked === true;
  if (!found || found.fingerprint === null) return { locked, row: null };
  const { fingerprint, status, content_type, location, body } = found;
  return { locked, row: { fingerprint, status, content_type, location, body } };
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

/**
 * Stores a response; an expired row of the same scope is replaced. A live one is kept, and the answer
 * is false: another request stored its response first (see `beginKeyed`).
 */
export async function insertIdempotencyRow(
  db: Queryable,
  scope: Buffer,
  fingerprint: Buffer,
  response: StoredResponse,
  now: Date,
  since: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
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
  return rowCount === 1;
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
