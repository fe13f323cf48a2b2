import type { Queryable } from '../db/database.js';

/** A user's own rows: their sessions, their name and address. Not a business's: filtered by user. */

export interface SessionListRow {
  id: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  last_ip: string | null;
  last_user_agent: string | null;
}

/** The user's live sessions, the most recently used first. */
export async function findLiveSessionsOf(db: Queryable, userId: string): Promise<SessionListRow[]> {
  const { rows } = await db.query<SessionListRow>(
    /* sql */ `
    SELECT id, created_at, expires_at, last_used_at, last_ip, last_user_agent
    FROM sessions
    WHERE user_id = $1
      AND revoked_at IS NULL
      AND expires_at > now()
    ORDER BY coalesce(last_used_at, created_at) DESC, id`,
    [userId],
  );
  return rows;
}

/** Revokes one live session of the user: false when it is not theirs, or not live. */
export async function revokeSessionOf(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE sessions
    SET revoked_at = now()
    WHERE id = $1
      AND user_id = $2
      AND revoked_at IS NULL
      AND expires_at > now()`,
    [sessionId, userId],
  );
  return (rowCount ?? 0) > 0;
}

export async function updateUserName(db: Queryable, userId: string, name: string | null): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE users
    SET name = $2
    WHERE id = $1`,
    [userId, name],
  );
}

/** The confirmed address becomes the user's, verified; false when another account has it meanwhile. */
export async function updateUserEmail(db: Queryable, userId: string, email: string): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE users
    SET email = $2,
      email_verified_at = now()
    WHERE id = $1
      AND NOT EXISTS (
        SELECT 1
        FROM users other
        WHERE lower(other.email) = lower($2)
          AND other.id <> $1)`,
    [userId, email],
  );
  return (rowCount ?? 0) > 0;
}

export interface NewConfirmation {
  id: string;
  kind: 'signup' | 'email_change';
  digest: Buffer;
  email: string;
  userId: string | null;
  businessName?: string;
  userName?: string;
  passwordHash?: string;
  mailId: string;
  lifetimeMs: number;
}

export async function insertConfirmation(db: Queryable, c: NewConfirmation): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO email_confirmations
      (id, kind, token_digest, email, user_id, business_name, user_name, password_hash, mail_id, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10::double precision / 1000))`,
    [
      c.id,
      c.kind,
      c.digest,
      c.email,
      c.userId,
      c.businessName ?? null,
      c.userName ?? null,
      c.passwordHash ?? null,
      c.mailId,
      c.lifetimeMs,
    ],
  );
}

export interface ConfirmationRow {
  id: string;
  email: string;
  user_id: string | null;
  business_name: string | null;
  user_name: string | null;
  password_hash: string | null;
}

/** Uses a live confirmation of this kind up, once: the row, or null when it was not live. */
export async function consumeConfirmation(
  db: Queryable,
  kind: 'signup' | 'email_change',
  digest: Buffer,
): Promise<ConfirmationRow | null> {
  const { rows } = await db.query<ConfirmationRow>(
    /* sql */ `
    UPDATE email_confirmations
    SET used_at = now()
    WHERE token_digest = $1
      AND kind = $2
      AND used_at IS NULL
      AND expires_at > now()
    RETURNING id, email, user_id, business_name, user_name, password_hash`,
    [digest, kind],
  );
  return rows[0] ?? null;
}

/** Messages of this kind sent to an address in the last day: the cap on what one address receives. */
export async function countRecentConfirmations(db: Queryable, kind: string, email: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    /* sql */ `
    SELECT count(*)::int AS n
    FROM email_confirmations
    WHERE kind = $1
      AND lower(email) = lower($2)
      AND created_at > now() - interval '1 day'`,
    [kind, email],
  );
  return rows[0]?.n ?? 0;
}
