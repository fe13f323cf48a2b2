import type { Queryable } from '../db/database.js';
import { sha256 } from '../shared/digest.js';
import { uuid } from '../shared/schemas.js';
import { findLiveSession, findSessionMember, type SessionRow } from './credential.repository.js';
import type { UserPrincipal } from './principal.js';
import { isWellFormedSessionToken } from './session-token.js';

/**
 * The dashboard's browser session: the same session tokens as `Authorization: Bearer`, carried in an
 * HttpOnly cookie instead, and resolved by the same lookups as businessAuth and sessionAuth
 * (credentials.ts), so a revoked or expired session is dead in both at once.
 */

/** The live session a cookie's token names, or null (absent, malformed, unknown, revoked or expired). */
export async function liveBrowserSession(db: Queryable, token: string | undefined): Promise<SessionRow | null> {
  if (!token || !isWellFormedSessionToken(token)) return null;
  return findLiveSession(db, sha256(token));
}

export interface BrowserMember {
  session: { id: string; user_id: string };
  /** What the session's user may do in the business, as on the JSON routes; null: not a member. */
  principal: UserPrincipal | null;
}

/**
 * The live session and its user's principal in `businessId`, in one round trip, as businessAuth
 * makes it for a Bearer session; null when the session is not live. A malformed business id is no
 * membership (principal null).
 */
export async function browserMember(
  db: Queryable,
  token: string | undefined,
  businessId: string,
): Promise<BrowserMember | null> {
  if (!token || !isWellFormedSessionToken(token)) return null;
  const parsed = uuid.safeParse(businessId);
  if (!parsed.success) {
    const live = await findLiveSession(db, sha256(token));
    return live ? { session: { id: live.id, user_id: live.user_id }, principal: null } : null;
  }
  const id = parsed.data.toLowerCase();
  const row = await findSessionMember(db, sha256(token), id);
  if (!row) return null;
  const session = { id: row.session_id, user_id: row.user_id };
  if (!row.role) return { session, principal: null };
  return {
    session,
    principal: {
      kind: 'user',
      businessId: id,
      role: row.role,
      userId: row.user_id,
      sessionId: row.session_id,
      changeNumber: row.change_number,
    },
  };
}
