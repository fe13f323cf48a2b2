import type pg from 'pg';
import { credentialRefused } from '../auth/credential-failure.js';
import type { SessionRow } from '../auth/credential.repository.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { unauthorized } from '../errors/http-error.js';
import type { Mailer } from '../mail/mail.sender.js';
import { findUserCredentialsById, revokeSessionsOf } from '../sessions/session.repository.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { isRandomToken, randomToken } from '../shared/random.js';
import { hashPassword, verifyPassword } from '../users/password.js';
import { markEmailVerified, updatePasswordHash } from '../users/user.repository.js';
import { passwordResetMessage } from './account.mail.js';
import {
  consumePasswordReset,
  expirePasswordResetsOf,
  findUsablePasswordReset,
  insertPasswordReset,
  skipCommitFlush,
} from './account.repository.js';
import type { PasswordChangeBody, PasswordResetConfirmBody } from './account.schemas.js';

export const PASSWORD_RESET_LIFETIME_MS = 30 * 60_000;
const RESET_PREFIX = 'fbr_';
/** Unused, unexpired resets a user may have at once: more requests send nothing. */
const MAX_LIVE_RESETS = 3;

/**
 * Emails a single-use reset token when the address has an account, and does exactly the same work
 * when it has none: the message is composed either way, and one statement in one transaction writes
 * the reset and its message, or nothing. No argon2 on this path; the caller always answers 202.
 */
export async function requestPasswordReset(pool: pg.Pool, mailer: Mailer, email: string): Promise<void> {
  const token = randomToken(RESET_PREFIX);
  const message = passwordResetMessage({
    token,
    link: mailer.link('reset-password', token),
    lifetimeMinutes: PASSWORD_RESET_LIFETIME_MS / 60_000,
  });
  const mailId = await withTransaction(pool, async (tx) => {
    await skipCommitFlush(tx);
    return insertPasswordReset(tx, {
      email,
      id: newId(),
      digest: sha256(token),
      lifetimeMs: PASSWORD_RESET_LIFETIME_MS,
      maxLive: MAX_LIVE_RESETS,
      mail: { id: newId(), ...message },
    });
  });
  mailer.deliver(mailId ? [mailId] : []);
}

const invalidResetToken = () =>
  credentialRefused('Reset token is invalid, expired or already used', 'INVALID_RESET_TOKEN');

/**
 * Sets the password of the reset's user, marks their email verified (the token came by email) and
 * ends every session of theirs, and every other reset link. The token is checked before argon2 runs.
 */
export async function confirmPasswordReset(pool: pg.Pool, input: PasswordResetConfirmBody): Promise<void> {
  await resetPassword(pool, input);
}

/** confirmPasswordReset, answering whose password it set: the dashboard signs them in with it. */
export async function resetPassword(pool: pg.Pool, input: PasswordResetConfirmBody): Promise<{ userId: string }> {
  if (!isRandomToken(RESET_PREFIX, input.token)) throw invalidResetToken();
  const digest = sha256(input.token);
  if (!(await findUsablePasswordReset(pool, digest))) throw invalidResetToken();
  const passwordHash = await hashPassword(input.password);
  return withTransaction(pool, async (tx) => {
    const reset = await consumePasswordReset(tx, digest);
    if (!reset) throw invalidResetToken();
    await storeNewPassword(tx, reset.user_id, passwordHash);
    await markEmailVerified(tx, reset.user_id);
    return { userId: reset.user_id };
  });
}

/** A new password ends the user's sessions (but `keepSessionId`) and any reset link still out. */
async function storeNewPassword(
  tx: Queryable,
  userId: string,
  passwordHash: string,
  keepSessionId: string | null = null,
) {
  await updatePasswordHash(tx, userId, passwordHash);
  await expirePasswordResetsOf(tx, userId);
  await revokeSessionsOf(tx, userId, keepSessionId);
}

/** An operator replaces a user's password (admin CLI): the user is signed out everywhere. */
export async function replacePassword(pool: pg.Pool, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withTransaction(pool, (tx) => storeNewPassword(tx, userId, passwordHash));
}

/**
 * A signed-in user changes their password, knowing the current one: a stolen session alone cannot
 * take the account over. Wrong guesses are slowed per email and count as failed sign-ins. Every
 * other session of the user ends, and so do outstanding reset links.
 */
export async function changePassword(
  pool: pg.Pool,
  throttle: LoginThrottle,
  session: SessionRow,
  input: PasswordChangeBody,
): Promise<void> {
  const user = await findUserCredentialsById(pool, session.user_id);
  if (!user) throw unauthorized();
  await throttle.wait(user.email);
  const valid = user.password_hash !== null && (await verifyPassword(user.password_hash, input.current_password));
  if (!valid) {
    throttle.recordFailure(user.email);
    throw credentialRefused('The current password is wrong', 'WRONG_PASSWORD');
  }
  throttle.recordSuccess(user.email);
  const passwordHash = await hashPassword(input.new_password);
  await withTransaction(pool, (tx) => storeNewPassword(tx, user.id, passwordHash, session.id));
}
