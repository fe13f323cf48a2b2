import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import { findKeyByDigest, touchApiKey } from '../api-keys/api-key.repository.js';
import { digestKey, isWellFormedKey } from '../api-keys/key-format.js';
import type { Plan, Scope } from '../shared/schemas.js';
import { forbidden, unauthorized } from './errors.js';

/** Who is calling, resolved once per request from the credential. */
export interface Principal {
  kind: 'api_key';
  businessId: string;
  scope: Scope;
  keyId: string;
  keyName: string;
  /** The user the key acts for (who created it): comments are authored by them. */
  userId: string;
}

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
 * The key from `X-API-Key` or `Authorization: Bearer`. Two different keys are refused rather than
 * guessing which one the client meant; a key in the query string is never looked at.
 */
function presentedKey(req: Request): string | undefined {
  const headerKey = req.get('x-api-key')?.trim();
  const authorization = req.get('authorization')?.trim();
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw unauthorized('Authorization header must use the Bearer scheme');
    bearer = match[1];
  }
  if (headerKey !== undefined && bearer !== undefined && headerKey !== bearer) {
    throw unauthorized('X-API-Key and Authorization carry different keys');
  }
  return headerKey || bearer;
}

export function apiKeyAuth(pool: pg.Pool): RequestHandler {
  return async (req, _res, next) => {
    const key = presentedKey(req);
    if (!key) throw unauthorized('An API key is required (X-API-Key or Authorization: Bearer)');
    if (!isWellFormedKey(key)) throw unauthorized('Invalid API key');
    const row = await findKeyByDigest(pool, digestKey(key));
    if (!row || row.revoked_at) throw unauthorized('Invalid or revoked API key');
    if (!API_PLANS.has(row.plan)) {
      throw forbidden('API access needs the Business plan or higher', 'PLAN_REQUIRED');
    }
    req.principal = {
      kind: 'api_key',
      businessId: row.business_id,
      scope: row.scope,
      keyId: row.id,
      keyName: row.name,
      userId: row.created_by,
    };
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      // Off the critical path: a failed bookkeeping write must not fail the request.
      touchApiKey(pool, row.business_id, row.id).catch((err: unknown) =>
        req.log.warn({ err }, 'last_used_at update failed'),
      );
    }
    next();
  };
}

/** `write` includes `read`; a read key on a write operation is a 403. */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (scope === 'write' && req.principal?.scope !== 'write') {
      throw forbidden('This operation needs an API key with the write scope', 'INSUFFICIENT_SCOPE');
    }
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}
