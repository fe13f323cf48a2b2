import type { RequestHandler } from 'express';
import type { Principal } from './auth.js';
import { principalOf } from './auth.js';
import { forbidden } from './errors.js';

/**
 * What a caller may do. Keys: `read` for reads, `write` for everything else, never key management.
 * Users: owners and admins everything; members read, comment and change status.
 */
export type Action = 'read' | 'comment' | 'change_status' | 'write' | 'manage_team' | 'invite_owner' | 'manage_keys';

const MEMBER_ACTIONS: ReadonlySet<Action> = new Set(['read', 'comment', 'change_status']);

function denial(principal: Principal, action: Action): string | null {
  if (principal.kind === 'api_key') {
    if (action === 'manage_keys') return 'API keys cannot manage API keys; sign in as an owner or admin';
    if (action === 'invite_owner') return 'Only an owner can invite an owner';
    if (action !== 'read' && principal.scope !== 'write') return 'This operation needs an API key with the write scope';
    return null;
  }
  if (action === 'invite_owner') return principal.role === 'owner' ? null : 'Only an owner can invite an owner';
  if (principal.role === 'owner' || principal.role === 'admin' || MEMBER_ACTIONS.has(action)) return null;
  return 'This operation needs the owner or admin role';
}

export function authorize(principal: Principal, action: Action): void {
  const reason = denial(principal, action);
  if (reason) throw forbidden(reason, principal.kind === 'api_key' ? 'INSUFFICIENT_SCOPE' : 'INSUFFICIENT_ROLE');
}

export const permit =
  (action: Action): RequestHandler =>
  (req, _res, next) => {
    authorize(principalOf(req), action);
    next();
  };
