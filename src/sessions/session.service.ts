import type pg from 'pg';
import { unauthorized } from '../http/errors.js';
import { newId } from '../shared/ids.js';
import { hashPassword, verifyPassword } from '../users/password.js';
import type { LoginThrottle } from './login-throttle.js';
import { generateSessionToken } from './session-token.js';
import { findUserCredentials, insertSession } from './session.repository.js';
import type { LoginResponse } from './session.responses.js';

export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** Verified against when the email is unknown, so both failures cost the same argon2 work. */
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword('decoy password that matches nothing'));

const invalidLogin = () => unauthorized('Invalid email or password');

export async function login(
  pool: pg.Pool,
  throttle: LoginThrottle,
  email: string,
  password: string,
): Promise<LoginResponse> {
  await throttle.wait(email);
  const user = await findUserCredentials(pool, email);
  const valid = await verifyPassword(user?.password_hash ?? (await decoy()), password);
  if (!user || !user.password_hash || !valid) {
    throttle.recordFailure(email);
    throw invalidLogin();
  }
  throttle.recordSuccess(email);
  const { token, digest } = generateSessionToken();
  const session = await insertSession(pool, { id: newId(), userId: user.id, digest, lifetimeMs: SESSION_LIFETIME_MS });
  return {
    token,
    expires_at: session.expires_at.toISOString(),
    user: { id: user.id, email: user.email, name: user.name },
  };
}
