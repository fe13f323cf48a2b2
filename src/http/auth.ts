import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import { findKeyByDigest, touchApiKey } from '../api-keys/api-key.repository.js';
import { digestKey, isWellFormedKey, KEY_PREFIX } from '../api-keys/key-format.js';
import { findLiveSession } from '../sessions/session.repository.js';
import { isWellFormedSessionToken } from '../sessions/session-token.js';
import { sha256 } from '../shared/digest.js';
import { uuid, type Plan, type Role, type Scope } from '../shared/schemas.js';
import { findMember } from '../users/user.repository.js';
import { forbidden, unauthorized } from './errors.js';

export interface ApiKeyPrincipal {
  kind: 'api_key';
  businessId: string;
  scope: Scope;
  keyId: string;
  keyName: string;
  /** The user the key acts for (who created it): comments are authored by them. */
  userId: string;
  /** The business's change number when the key was checked (src/cache/list-cache.ts). */
  changeNumber: number;
}

export interface UserPrincipal {
  kind: 'user';
  businessId: string;
  role: Role;
  userId: string;
  sessionId: string;
}

/** Who is calling and for which business, resolved once per request from the credential. */
export type Principal = ApiKeyPrincipal | UserPrincipal;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}

const API_PLANS: ReadonlySet<Plan> = new Set(['business', 'enterprise']);
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Every authentication failure answers the same 401 body, whatever went wrong (missing, malformed,
 * unknown, revoked, expired): the response is no oracle for guessing which part of a credential is right.
 *
 * The credential from `X-API-Key` or `Authorization: Bearer`. Two different values are refused rather
 * than guessing which one the client meant; the query string is never looked at.
 */
export function presentedCredential(req: Request): string | undefined {
  const headerKey = req.get('x-api-key')?.trim();
  const authorization = req.get('authorization')?.trim();
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw unauthorized();
    bearer = match[1];
  }
  if (headerKey !== undefined && bearer !== undefined && headerKey !== bearer) {
    throw unauthorized();
  }
  return headerKey || bearer;
}

async function resolveApiKey(pool: pg.Pool, req: Request, key: string): Promise<ApiKeyPrincipal> {
  if (!isWellFormedKey(key)) throw unauthorized();
  const row = await findKeyByDigest(pool, digestKey(key));
  if (!row || row.revoked_at) throw unauthorized();
  if (!API_PLANS.has(row.plan)) throw forbidden('API access needs the Business plan or higher', 'PLAN_REQUIRED');
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Off the critical path: a failed bookkeeping write must not fail the request.
    touchApiKey(pool, row.business_id, row.id).catch((err: unknown) =>
      req.log.warn({ err }, 'last_used_at update failed'),
    );
  }
  return {
    kind: 'api_key',
    businessId: row.business_id,
    scope: row.scope,
    keyId: row.id,
    keyName: row.name,
    userId: row.created_by,
    changeNumber: row.change_number,
  };
}

/** /api/v1: API keys only; the business is the key's. */
export function apiKeyAuth(pool: pg.Pool): RequestHandler {
  return async (req, _res, next) => {
    const key = presentedCredential(req);
    if (!key) throw unauthorized();
    req.principal = await resolveApiKey(pool, req, key);
    next();
  };
}

const noAccess = () => forbidden('This credential has no access to this business', 'NO_BUSINESS_ACCESS');

/** A live session's user, or null when the token is not one. */
export async function resolveSessionUser(pool: pg.Pool, token: string) {
  if (!isWellFormedSessionToken(token)) return null;
  return findLiveSession(pool, sha256(token));
}

/**
 * /businesses/:business_id: an API key of that business or a session of one of its members. A
 * malformed business id, another business's key or a non-member is a 403.
 */
export function businessAuth(pool: pg.Pool): RequestHandler {
  return async (req, _res, next) => {
    const credential = presentedCredential(req);
    if (!credential) throw unauthorized();
    const businessId = uuid.safeParse(req.params.business_id);

    if (credential.startsWith(KEY_PREFIX)) {
      const principal = await resolveApiKey(pool, req, credential);
      if (!businessId.success || principal.businessId !== businessId.data.toLowerCase()) throw noAccess();
      req.principal = principal;
      return next();
    }

    const session = await resolveSessionUser(pool, credential);
    if (!session) throw unauthorized();
    if (!businessId.success) throw noAccess();
    const member = await findMember(pool, businessId.data.toLowerCase(), session.user_id);
    if (!member) throw noAccess();
    req.principal = {
      kind: 'user',
      businessId: businessId.data.toLowerCase(),
      role: member.role,
      userId: session.user_id,
      sessionId: session.id,
    };
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Who an activity row credits: the user, and the key when the change came through one. */
export function actorOf(principal: Principal): { actorUserId: string; actorApiKeyId: string | null } {
  return { actorUserId: principal.userId, actorApiKeyId: principal.kind === 'api_key' ? principal.keyId : null };
}
