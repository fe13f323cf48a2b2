import type pg from 'pg';
import { newId } from '../shared/ids.js';
import { hashPassword, verifyPassword } from '../users/password.js';
import { credentialRefused } from '../auth/credential-failure.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import { generateSessionToken } from '../auth/session-token.js';
import type { SessionRow } from '../auth/credential.repository.js';
import { findUserById } from '../users/user.repository.js';
import {
  findMemberships,
  findUserCredentials,
  insertSession,
  revokeSession,
  type UserCredentialsRow,
} from './session.repository.js';

export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** Verified against when the email is unknown, so both failures cost the same argon2 work. */
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword('decoy password that matches nothing'));

const invalidLogin = () => credentialRefused('Invalid email or password');

export async function login(
  pool: pg.Pool,
  throttle: LoginThrottle,
  email: string,
  password: string,
): Promise<{ token: string; session: SessionRow; user: UserCredentialsRow }> {
  await throttle.wait(email);
  const user = await findUserCredentials(pool, email);
  const valid = await verifyPassword(user?.password_hash ?? (await decoy()), password);
  if (!user || !user.password_hash || !valid) {
    throttle.recordFailure(email);
    throw invalidLogin();
  }
  throttle.recordSuccess(email);
  return { ...(await startSession(pool, user.id)), user };
}

/**
 * A new session for a user who has just proved who they are otherwise (the dashboard, after an
 * accepted invite or a password reset by email): the token is the client's, the database keeps its digest.
 */
export async function startSession(pool: pg.Pool, userId: string): Promise<{ token: string; session: SessionRow }> {
  const { token, digest } = generateSessionToken();
  const session = await insertSession(pool, { id: newId(), userId, digest, lifetimeMs: SESSION_LIFETIME_MS });
  return { token, session };
}

/** The session's user (null once deleted) and the businesses they belong to. */
export async function describeSession(pool: pg.Pool, session: SessionRow) {
  return describeUser(pool, session.user_id);
}

/** A user (null once deleted) and the businesses they belong to, by name. */
export async function describeUser(pool: pg.Pool, userId: string) {
  const [user, memberships] = await Promise.all([findUserById(pool, userId), findMemberships(pool, userId)]);
  return { user, memberships };
}

export async function logout(pool: pg.Pool, session: SessionRow): Promise<void> {
  await revokeSession(pool, session.id);
}
