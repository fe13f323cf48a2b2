import type pg from 'pg';
import { credentialRefused } from '../auth/credential-failure.js';
import type { SessionRow } from '../auth/credential.repository.js';
import { withTransaction } from '../db/database.js';
import { conflict, notFound } from '../errors/http-error.js';
import type { Mailer } from '../mail/mail.sender.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { isRandomToken, randomToken } from '../shared/random.js';
import { findUserByEmail } from '../users/user.repository.js';
import { emailChangeMessage } from './profile.mail.js';
import {
  consumeConfirmation,
  countRecentConfirmations,
  findLiveSessionsOf,
  insertConfirmation,
  revokeSessionOf,
  updateUserEmail,
  updateUserName,
} from './profile.repository.js';

export const EMAIL_CONFIRMATION_LIFETIME_MS = 24 * 60 * 60_000;
export const EMAIL_CHANGE_PREFIX = 'fbe_';

export async function renameUser(pool: pg.Pool, session: SessionRow, name: string | null): Promise<void> {
  await updateUserName(pool, session.user_id, name);
}

/** The user's live sessions; the caller's own is marked `current`. */
export async function listSessions(pool: pg.Pool, session: SessionRow) {
  const rows = await findLiveSessionsOf(pool, session.user_id);
  return rows.map((row) => ({ ...row, current: row.id === session.id }));
}

/**
 * Signs one of the user's sessions out, at once: the next request with its token is a 401, as after
 * /auth/logout. Another user's session, or one already ended, is a 404.
 */
export async function endSession(pool: pg.Pool, session: SessionRow, sessionId: string): Promise<void> {
  if (!(await revokeSessionOf(pool, session.user_id, sessionId))) throw notFound('Session');
}

/**
 * Mails a confirmation link to the new address; the address changes only when it is followed. An
 * address another account has is refused now and again at confirmation. As with invites, at most
 * `perAddressPerDay` messages a day go to one address: past that, nothing more is sent.
 */
export async function requestEmailChange(
  pool: pg.Pool,
  mailer: Mailer,
  session: SessionRow,
  email: string,
  perAddressPerDay: number,
): Promise<void> {
  if (await findUserByEmail(pool, email)) throw emailTaken();
  const token = randomToken(EMAIL_CHANGE_PREFIX);
  const message = emailChangeMessage({
    token,
    link: mailer.link('confirm-email', token),
    lifetimeMinutes: EMAIL_CONFIRMATION_LIFETIME_MS / 60_000,
  });
  const mailId = await withTransaction(pool, async (tx) => {
    if ((await countRecentConfirmations(tx, 'email_change', email)) >= perAddressPerDay) return null;
    const id = newId();
    await mailer.enqueue(tx, {
      id,
      recipient: email,
      ...message,
      lifetimeMs: EMAIL_CONFIRMATION_LIFETIME_MS,
    });
    await insertConfirmation(tx, {
      id: newId(),
      kind: 'email_change',
      digest: sha256(token),
      email,
      userId: session.user_id,
      mailId: id,
      lifetimeMs: EMAIL_CONFIRMATION_LIFETIME_MS,
    });
    return id;
  });
  mailer.deliver(mailId ? [mailId] : []);
}

const invalidConfirmation = () =>
  credentialRefused('Confirmation token is invalid, expired or already used', 'INVALID_CONFIRMATION_TOKEN');

/** Follows an email change's link: the address becomes the user's, verified. Works once. */
export async function confirmEmailChange(pool: pg.Pool, token: string): Promise<{ userId: string }> {
  if (!isRandomToken(EMAIL_CHANGE_PREFIX, token)) throw invalidConfirmation();
  return withTransaction(pool, async (tx) => {
    const change = await consumeConfirmation(tx, 'email_change', sha256(token));
    if (!change?.user_id) throw invalidConfirmation();
    if (!(await updateUserEmail(tx, change.user_id, change.email))) throw emailTaken();
    return { userId: change.user_id };
  });
}

/** An address that already has an account: the new owner signs in with it instead. */
export const emailTaken = () =>
  conflict('This email already has an account', [
    { field: 'email', code: 'email_taken', message: 'already has an account' },
  ]);
