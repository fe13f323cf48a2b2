import type { SessionRow } from '../auth/credential.repository.js';
import type { AccountRow, UserRow } from '../users/user.repository.js';
import type { MembershipSummaryRow } from './session.repository.js';
import type { CurrentSession, LoginResponse } from './session.responses.js';

type SessionUser = Pick<UserRow, 'id' | 'email' | 'name'>;

export const toLoginResponse = (token: string, session: SessionRow, user: SessionUser): LoginResponse => ({
  token,
  expires_at: session.expires_at.toISOString(),
  user: { id: user.id, email: user.email, name: user.name },
});

export const toCurrentSessionResponse = (
  session: SessionRow,
  user: AccountRow | null,
  memberships: MembershipSummaryRow[],
): CurrentSession => ({
  user: {
    id: session.user_id,
    email: user?.email ?? null,
    name: user?.name ?? null,
    email_verified: user?.email_verified_at != null,
  },
  expires_at: session.expires_at.toISOString(),
  memberships,
});
