import type { Queryable } from '../db/database.js';
import { sha256 } from '../shared/digest.js';
import { findLiveSession, type SessionRow } from './credential.repository.js';
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
