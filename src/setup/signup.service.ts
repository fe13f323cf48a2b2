import type pg from 'pg';
import { credentialRefused } from '../auth/credential-failure.js';
import { createBusiness } from '../businesses/business.service.js';
import { inTransaction, withTransaction } from '../db/database.js';
import type { Mailer } from '../mail/mail.sender.js';
import { signUpMessage } from '../profile/profile.mail.js';
import { consumeConfirmation, countRecentConfirmations, insertConfirmation } from '../profile/profile.repository.js';
import { EMAIL_CONFIRMATION_LIFETIME_MS } from '../profile/profile.service.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { isRandomToken, randomToken } from '../shared/random.js';
import { hashPassword } from '../users/password.js';
import { findUserByEmail } from '../users/user.repository.js';
import type { SignUpBody } from './setup.schemas.js';

const SIGNUP_PREFIX = 'fbn_';

/**
 * Self-service sign-up (SIGNUP=open): nothing is created yet, only a confirmation mailed to the
 * address, as invites are (the token only by email, never in an answer, at most `perAddressPerDay` a
 * day). The page answers the same whether or not the address has an account: one that has gets no
 * message, so the page never tells who is a user.
 */
export async function requestSignUp(pool: pg.Pool, mailer: Mailer, input: SignUpBody, perAddressPerDay: number) {
  const passwordHash = await hashPassword(input.password);
  if (await findUserByEmail(pool, input.email)) return;
  const token = randomToken(SIGNUP_PREFIX);
  const message = signUpMessage({
    token,
    link: mailer.link('sign-up/confirm', token),
    lifetimeMinutes: EMAIL_CONFIRMATION_LIFETIME_MS / 60_000,
  });
  const mailId = await withTransaction(pool, async (tx) => {
    if ((await countRecentConfirmations(tx, 'signup', input.email)) >= perAddressPerDay) return null;
    const id = newId();
    await mailer.enqueue(tx, { id, recipient: input.email, ...message, lifetimeMs: EMAIL_CONFIRMATION_LIFETIME_MS });
    await insertConfirmation(tx, {
      id: newId(),
      kind: 'signup',
      digest: sha256(token),
      email: input.email,
      userId: null,
      businessName: input.business_name,
      userName: input.name,
      passwordHash,
      mailId: id,
      lifetimeMs: EMAIL_CONFIRMATION_LIFETIME_MS,
    });
    return id;
  });
  mailer.deliver(mailId ? [mailId] : []);
}

/** A sign-up link that is not live (or whose address got an account meanwhile): a refused credential. */
export const invalidSignUpToken = () =>
  credentialRefused('Sign-up token is invalid, expired or already used', 'INVALID_SIGNUP_TOKEN');

/**
 * Follows a sign-up's link: the business and its owner, created as `admin business create` does, the
 * owner's address verified. Once only; a token that is not live, or an address that got an account
 * meanwhile, is refused as a credential (it costs the address one failure).
 */
export async function confirmSignUp(pool: pg.Pool, token: string) {
  if (!isRandomToken(SIGNUP_PREFIX, token)) throw invalidSignUpToken();
  // Refused after the transaction: a link used up on an address that got an account stays used up.
  const created = await inTransaction(pool, async () => {
    const signup = await consumeConfirmation(pool, 'signup', sha256(token));
    if (!signup?.business_name || !signup.password_hash) return null;
    if (await findUserByEmail(pool, signup.email)) return null;
    return createBusiness(pool, {
      name: signup.business_name,
      plan: 'business',
      ownerEmail: signup.email,
      ownerName: signup.user_name ?? undefined,
      ownerPasswordHash: signup.password_hash,
      ownerEmailVerified: true,
    });
  });
  if (!created) throw invalidSignUpToken();
  return created;
}
