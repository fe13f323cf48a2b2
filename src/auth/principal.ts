import type { Request } from 'express';
import { unauthorized } from '../errors/http-error.js';
import type { Role, Scope } from '../shared/schemas.js';

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
  /** The business's change number when the membership was checked (src/cache/list-cache.ts). */
  changeNumber: number;
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

export function principalOf(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Who an activity row credits: the user, and the key when the change came through one. */
export function actorOf(principal: Principal): { actorUserId: string; actorApiKeyId: string | null } {
  return { actorUserId: principal.userId, actorApiKeyId: principal.kind === 'api_key' ? principal.keyId : null };
}
