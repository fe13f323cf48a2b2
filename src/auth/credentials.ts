import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import { digestKey, isWellFormedKey, KEY_PREFIX } from './key-format.js';
import {
  findKeyCredential,
  findLiveSession,
  findSessionMember,
  touchApiKey,
  type KeyCredentialRow,
  type SessionRow,
} from './credential.repository.js';
import { isWellFormedSessionToken } from './session-token.js';
import { sessionUsed } from './session-use.js';
import { sha256 } from '../shared/digest.js';
import { uuid, type Plan } from '../shared/schemas.js';
import type { ApiKeyPrincipal } from './principal.js';
import { forbidden, unauthorized, type HttpError } from '../errors/http-error.js';

const API_PLANS: ReadonlySet<Plan> = new Set(['business', 'enterprise']);
const LAST_USED_RESOLUTION_MS = 60_000;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * A credential that was identified but has no access here (another business's key or path, a
       * non-member, a plan without API access): refused by `admitIdentified` once the request has been
       * charged to the credential's budget, so a refused caller cannot call for free.
       */
      accessDenied?: HttpError;
      /** The dashboard session of a request to /auth/me or /auth/logout. */
      dashboardSession?: SessionRow;
    }
  }
}

interface Presented {
  credential: string | undefined;
  /** From `Authorization: Bearer`: the only place a session token is accepted. */
  bearer: string | undefined;
}

/**
 * Every authentication failure answers the same 401 body, whatever went wrong (missing, malformed,
 * unknown, revoked, expired): the response is no oracle for guessing which part of a credential is right.
 *
 * The credential from `X-API-Key` or `Authorization: Bearer`. Two different values are refused rather
 * than guessing which one the client meant; the query string is never looked at.
 */
function presented(req: Request): Presented {
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
  return { credential: headerKey || bearer, bearer };
}

async function resolveApiKey(pool: pg.Pool, req: Request, key: string): Promise<ApiKeyPrincipal> {
  if (!isWellFormedKey(key)) throw unauthorized();
  const row = await findKeyCredential(pool, digestKey(key));
  if (!row || row.revoked_at) throw unauthorized();
  req.credentialId = `key:${row.id}`;
  if (!API_PLANS.has(row.plan)) {
    req.accessDenied = forbidden('API access needs the Business plan or higher', 'PLAN_REQUIRED');
  } else if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Off the critical path: a failed bookkeeping write must not fail the request.
    touchApiKey(pool, row.business_id, row.id).catch((err: unknown) =>
      req.log.warn({ err }, 'last_used_at update failed'),
    );
  }
  return keyPrincipalOf(row);
}

/** What a live key acts as: its business, scope and creator, and the business's change number. */
export function keyPrincipalOf(row: KeyCredentialRow): ApiKeyPrincipal {
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
    const { credential } = presented(req);
    if (!credential) throw unauthorized();
    const principal = await resolveApiKey(pool, req, credential);
    if (!req.accessDenied) req.principal = principal;
    next();
  };
}

const noAccess = () => forbidden('This credential has no access to this business', 'NO_BUSINESS_ACCESS');

/** A live session's user, or null when the token is not one. */
async function resolveSessionUser(pool: pg.Pool, token: string): Promise<SessionRow | null> {
  if (!isWellFormedSessionToken(token)) return null;
  return findLiveSession(pool, sha256(token));
}

/**
 * /businesses/:business_id: an API key of that business (in either header) or a session of one of its
 * members (in `Authorization: Bearer` only, as the document says). A malformed business id, another
 * business's key or a non-member is a 403, after the request is charged to the credential.
 */
export function businessAuth(pool: pg.Pool): RequestHandler {
  return async (req, _res, next) => {
    const { credential, bearer } = presented(req);
    if (!credential) throw unauthorized();
    const businessId = uuid.safeParse(req.params.business_id);

    if (credential.startsWith(KEY_PREFIX)) {
      const principal = await resolveApiKey(pool, req, credential);
      if (req.accessDenied) return next();
      if (!businessId.success || principal.businessId !== businessId.data.toLowerCase()) {
        req.accessDenied = noAccess();
        return next();
      }
      req.principal = principal;
      return next();
    }

    // A session token goes only in Authorization: Bearer, as the document says.
    if (bearer !== credential || !isWellFormedSessionToken(credential)) throw unauthorized();
    if (!businessId.success) {
      // Still a 401 for a dead session, whatever the path says: the credential is checked first.
      const live = await resolveSessionUser(pool, credential);
      if (!live) throw unauthorized();
      req.credentialId = `user:${live.user_id}`;
      req.accessDenied = noAccess();
      return next();
    }
    const id = businessId.data.toLowerCase();
    const session = await findSessionMember(pool, sha256(credential), id);
    if (!session) throw unauthorized();
    req.credentialId = `user:${session.user_id}`;
    await sessionUsed(pool, session.session_id, req);
    if (!session.role) {
      req.accessDenied = noAccess();
      return next();
    }
    req.principal = {
      kind: 'user',
      businessId: id,
      role: session.role,
      userId: session.user_id,
      sessionId: session.session_id,
      changeNumber: session.change_number,
    };
    next();
  };
}

/** /auth/me and /auth/logout: a live dashboard session, in `Authorization: Bearer`. */
export function sessionAuth(pool: pg.Pool): RequestHandler {
  return async (req, _res, next) => {
    const { credential, bearer } = presented(req);
    const session = credential && bearer === credential ? await resolveSessionUser(pool, credential) : null;
    if (!session) throw unauthorized();
    req.credentialId = `user:${session.user_id}`;
    await sessionUsed(pool, session.id, req);
    req.dashboardSession = session;
    next();
  };
}

/**
 * For a public route that may also carry a session (accepting an invite for an existing account):
 * null without a credential; a credential that is not a live session in `Authorization: Bearer` is a 401.
 */
export async function presentedSession(pool: pg.Pool, req: Request): Promise<SessionRow | null> {
  const { credential, bearer } = presented(req);
  if (!credential) return null;
  const session = bearer === credential ? await resolveSessionUser(pool, credential) : null;
  if (!session) throw unauthorized();
  return session;
}

/**
 * After the per-credential limit: the 403 of a credential that was identified but has no access. It
 * comes this late so that the refusal is charged to the credential like any other request.
 */
export const admitIdentified: RequestHandler = (req, _res, next) => {
  if (req.accessDenied) throw req.accessDenied;
  next();
};
