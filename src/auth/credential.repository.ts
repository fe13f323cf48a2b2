import { changeNumberSql } from '../cache/change.repository.js';
import type { Queryable } from '../db/database.js';
import type { Plan, Role, Scope } from '../shared/schemas.js';

/**
 * The lookups that turn a credential into a business: the only queries not filtered by a business,
 * because the credential is what names it.
 */

/**
 * What authentication needs of a key: the key, the plan of its business, and that business's change
 * number, read in the same round trip for the cached lists of /api/v1 (docs/caching.md).
 */
export interface KeyCredentialRow {
  id: string;
  business_id: string;
  name: string;
  scope: Scope;
  created_by: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  plan: Plan;
  change_number: number;
}

export async function findKeyCredential(db: Queryable, digest: Buffer): Promise<KeyCredentialRow | null> {
  const { rows } = await db.query<KeyCredentialRow>(
    /* sql */ `
    SELECT k.id, k.business_id, k.name, k.scope, k.created_by, k.last_used_at, k.revoked_at,
      b.plan, ${changeNumberSql('k.business_id')} AS change_number
    FROM api_keys k
    JOIN businesses b ON b.id = k.business_id
    WHERE k.digest = $1`,
    [digest],
  );
  return rows[0] ?? null;
}

/** At most one write a minute per key, whatever the request rate. */
export async function touchApiKey(db: Queryable, businessId: string, keyId: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE api_keys
    SET last_used_at = now()
    WHERE business_id = $1
      AND id = $2
      AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [businessId, keyId],
  );
}

export interface SessionRow {
  id: string;
  user_id: string;
  expires_at: Date;
}

/** Only a live session: not revoked and not expired. */
export async function findLiveSession(db: Queryable, digest: Buffer): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    /* sql */ `
    SELECT id, user_id, expires_at
    FROM sessions
    WHERE token_digest = $1
      AND revoked_at IS NULL
      AND expires_at > now()`,
    [digest],
  );
  return rows[0] ?? null;
}

export interface SessionMemberRow {
  session_id: string;
  user_id: string;
  /** null: a live session, but not of a member of this business */
  role: Role | null;
  change_number: number;
}

/**
 * A live session (`s`) by its token's digest ($1), and its user's membership (`m`, null for none) of
 * the business $2: what follows FROM wherever a session is checked against a business.
 */
export const LIVE_SESSION_MEMBER = /* sql */ `sessions s
    LEFT JOIN memberships m ON m.user_id = s.user_id AND m.business_id = $2
    WHERE s.token_digest = $1
      AND s.revoked_at IS NULL
      AND s.expires_at > now()`;

/**
 * A live session and, in the same round trip, its user's role in the business the request names
 * and that business's change number (for the cached lists, docs/caching.md).
 */
export async function findSessionMember(
  db: Queryable,
  digest: Buffer,
  businessId: string,
): Promise<SessionMemberRow | null> {
  const { rows } = await db.query<SessionMemberRow>(
    /* sql */ `
    SELECT s.id AS session_id, s.user_id, m.role, ${changeNumberSql('$2::uuid')} AS change_number
    FROM ${LIVE_SESSION_MEMBER}`,
    [digest, businessId],
  );
  return rows[0] ?? null;
}

/**
 * Where and when a session was last used, for its user's list of sessions: written at most once a
 * minute per session (or when the address or browser changes), so a burst of requests costs one write.
 */
export async function noteSessionUse(
  db: Queryable,
  sessionId: string,
  where: { ip: string | null; userAgent: string | null },
): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE sessions
    SET last_used_at = now(),
      last_ip = $2,
      last_user_agent = $3
    WHERE id = $1
      AND (last_used_at IS NULL
        OR last_used_at < now() - interval '1 minute'
        OR last_ip IS DISTINCT FROM $2
        OR last_user_agent IS DISTINCT FROM $3)`,
    [sessionId, where.ip, where.userAgent?.slice(0, 400) ?? null],
  );
}
