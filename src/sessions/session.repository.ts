import type { Queryable } from '../db/database.js';
import type { SessionRow } from '../auth/credential.repository.js';

export interface UserCredentialsRow {
  id: string;
  email: string;
  name: string | null;
  password_hash: string | null;
}

export async function findUserCredentials(db: Queryable, email: string): Promise<UserCredentialsRow | null> {
  const { rows } = await db.query<UserCredentialsRow>(
    /* sql */ `
    SELECT id, email, name, password_hash
    FROM users
    WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

export async function insertSession(
  db: Queryable,
  session: { id: string; userId: string; digest: Buffer; lifetimeMs: number },
): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    /* sql */ `
    INSERT INTO sessions (id, user_id, token_digest, expires_at)
    VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))
    RETURNING id, user_id, expires_at`,
    [session.id, session.userId, session.digest, session.lifetimeMs],
  );
  return rows[0]!;
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE sessions
    SET revoked_at = COALESCE(revoked_at, now())
    WHERE id = $1`,
    [sessionId],
  );
}

/** Ends every live session of the user, but `keepSessionId` (the one changing its password). */
export async function revokeSessionsOf(db: Queryable, userId: string, keepSessionId: string | null = null) {
  await db.query(
    /* sql */ `
    UPDATE sessions
    SET revoked_at = now()
    WHERE user_id = $1
      AND revoked_at IS NULL
      AND id IS DISTINCT FROM $2`,
    [userId, keepSessionId],
  );
}

export async function findUserCredentialsById(db: Queryable, userId: string): Promise<UserCredentialsRow | null> {
  const { rows } = await db.query<UserCredentialsRow>(
    /* sql */ `
    SELECT id, email, name, password_hash
    FROM users
    WHERE id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

export interface MembershipSummaryRow {
  business_id: string;
  business_name: string;
  role: 'owner' | 'admin' | 'member';
}

export async function findMemberships(db: Queryable, userId: string): Promise<MembershipSummaryRow[]> {
  const { rows } = await db.query<MembershipSummaryRow>(
    /* sql */ `
    SELECT m.business_id, b.name AS business_name, m.role
    FROM memberships m
    JOIN businesses b ON b.id = m.business_id
    WHERE m.user_id = $1
    ORDER BY b.name, b.id`,
    [userId],
  );
  return rows;
}
