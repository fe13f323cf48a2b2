import type { Principal } from '../auth/principal.js';
import { authorize, type Action } from '../auth/authorize.js';
import { ROLES, SCOPES, type Role, type Scope } from '../shared/schemas.js';

export interface Access {
  /** API key scopes that may do it (none: keys cannot). */
  scopes: Scope[];
  /** Member roles that may do it. */
  roles: Role[];
}

function permits(principal: Principal, action: Action): boolean {
  try {
    authorize(principal, action);
    return true;
  } catch {
    return false;
  }
}

const withScope = (scope: Scope): Principal => ({
  kind: 'api_key',
  businessId: '',
  scope,
  keyId: '',
  keyName: '',
  userId: '',
  changeNumber: 0,
});
const withRole = (role: Role): Principal => ({
  kind: 'user',
  businessId: '',
  role,
  userId: '',
  sessionId: '',
  changeNumber: 0,
});

/** Asks authorize() itself, so the document says exactly what the code enforces. */
export function accessFor(action: Action): Access {
  return {
    scopes: SCOPES.filter((scope) => permits(withScope(scope), action)),
    roles: ROLES.filter((role) => permits(withRole(role), action)),
  };
}
