import type { Principal } from './principal.js';
import { forbidden } from '../errors/http-error.js';

/**
 * What a caller may do. Keys: `read` for reads, `write` for everything else, never key management,
 * invites, members or settings. Users: owners and admins everything; members read, comment, change status,
 * tag items (`tag_items`, triage like a status) and leave. `update` is a change whose fields decide: the
 * status and the tags alone are `change_status`, anything more is `write`. Only owners grant, take, invite or remove the owner role (`manage_owners`).
 */
export type Action =
  | 'read'
  | 'comment'
  | 'change_status'
  | 'tag_items'
  | 'update'
  | 'write'
  | 'manage_team'
  | 'manage_owners'
  | 'manage_keys'
  | 'manage_webhooks'
  | 'manage_business'
  | 'read_followers'
  | 'leave';

/** What an API key may never do, whatever its scope, and why. */
const NEVER_BY_KEY: Partial<Record<Action, string>> = {
  // A key that could invite could accept its own invite and sign in with more rights than it has.
  manage_team: 'API keys cannot invite or cancel invites; sign in as an owner or admin',
  manage_keys: 'API keys cannot manage API keys; sign in as an owner or admin',
  // A leaked key must not be able to send every future event to an address of its choosing.
  manage_webhooks: 'API keys cannot manage webhooks; sign in as an owner or admin',
  manage_owners: 'Only an owner can grant, take or invite the owner role',
  manage_business: 'API keys cannot change members or settings; sign in as an owner or admin',
  leave: 'API keys cannot change members; sign in',
  // Customers' addresses, given to the business for its emails only (docs/notifications.md).
  read_followers: "API keys cannot read followers' addresses; sign in as an owner or admin",
};

const MEMBER_ACTIONS: ReadonlySet<Action> = new Set(['read', 'comment', 'change_status', 'tag_items', 'leave']);

/** The fields of an `update` a member may change: triage, never publishing or priority. */
const MEMBER_FIELDS: ReadonlySet<string> = new Set(['status', 'tags']);
/** The fields of an `update` that say which rows it changes, not what: a bulk change's `ids`. */
const SELECTORS: ReadonlySet<string> = new Set(['ids']);

/** What an action needs: an `update` is `change_status` when only triage fields change, else `write`. */
const neededFor = (action: Action, fields: readonly string[]): Action =>
  action === 'update'
    ? fields.every((field) => MEMBER_FIELDS.has(field) || SELECTORS.has(field))
      ? 'change_status'
      : 'write'
    : action;

function denial(principal: Principal, action: Action): string | null {
  if (principal.kind === 'api_key') {
    const never = NEVER_BY_KEY[action];
    if (never) return never;
    if (action !== 'read' && principal.scope !== 'write') return 'This operation needs an API key with the write scope';
    return null;
  }
  if (action === 'manage_owners') return principal.role === 'owner' ? null : NEVER_BY_KEY.manage_owners!;
  if (principal.role === 'owner' || principal.role === 'admin' || MEMBER_ACTIONS.has(action)) return null;
  return 'This operation needs the owner or admin role';
}

/**
 * Whether the principal may do `action` (`update` judged by `fields`, none a status-only change, as
 * authorize() judges it): what a page offers, by the very rules authorize() enforces.
 */
export const mayDo = (principal: Principal, action: Action, fields: readonly string[] = []): boolean =>
  denial(principal, neededFor(action, fields)) === null;

/**
 * Throws a 403 unless the principal may do `action`. For `update`, `fields` are the ones the request
 * changes (none given: judged as a status-only change).
 */
export function authorize(principal: Principal, action: Action, fields: readonly string[] = []): void {
  const reason = denial(principal, neededFor(action, fields));
  if (reason) throw forbidden(reason, principal.kind === 'api_key' ? 'INSUFFICIENT_SCOPE' : 'INSUFFICIENT_ROLE');
}
