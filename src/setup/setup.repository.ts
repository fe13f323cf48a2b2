import type { Queryable } from '../db/database.js';

/**
 * The first run's statements. Not filtered by business: they exist only while there is none, and a
 * setup link belongs to the installation, not to a business.
 */

/** Whether any business exists: once one does, /app/setup is gone for good. */
export async function anyBusinessExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(/* sql */ `
    SELECT EXISTS (SELECT 1 FROM businesses) AS found`);
  return rows[0]?.found ?? false;
}

/**
 * Serialises the first runs: two posts at once wait for each other here, and the second then finds
 * the business the first created. Held until the transaction ends.
 */
export async function lockFirstRun(db: Queryable): Promise<void> {
  await db.query(/* sql */ `
    SELECT pg_advisory_xact_lock(hashtext('feedback:first-run'))`);
}

export async function insertSetupToken(
  db: Queryable,
  token: { id: string; digest: Buffer; lifetimeMs: number },
): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO setup_tokens (id, token_digest, expires_at)
    VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))`,
    [token.id, token.digest, token.lifetimeMs],
  );
}

/** Whether a setup token is live (unused, unexpired): checked before the password is hashed. */
export async function findLiveSetupToken(db: Queryable, digest: Buffer): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT 1
    FROM setup_tokens
    WHERE token_digest = $1
      AND used_at IS NULL
      AND expires_at > now()`,
    [digest],
  );
  return rows.length > 0;
}

/** Uses a live setup token up: true when this call did, false when it was not live. */
export async function consumeSetupToken(db: Queryable, digest: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE setup_tokens
    SET used_at = now()
    WHERE token_digest = $1
      AND used_at IS NULL
      AND expires_at > now()`,
    [digest],
  );
  return (rowCount ?? 0) > 0;
}
