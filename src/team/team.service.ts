import type pg from 'pg';
import { recordActivity } from '../outbox/outbox.service.js';
import { authorize, mayDo } from '../auth/authorize.js';
import { credentialRefused } from '../auth/credential-failure.js';
import type { SessionRow } from '../auth/credential.repository.js';
import type { Principal } from '../auth/principal.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { withUniqueConflict } from '../db/errors.js';
import {
  conflict,
  forbidden,
  HttpError,
  invalidField,
  invalidInput,
  notFound,
  RateLimitError,
} from '../errors/http-error.js';
import { withdrawMail } from '../mail/mail.repository.js';
import type { Mailer } from '../mail/mail.sender.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { isRandomToken, randomToken } from '../shared/random.js';
import { hashPassword } from '../users/password.js';
import {
  findMember,
  findUserByEmail,
  findUserById,
  insertMembership,
  insertUser,
  markEmailVerified,
  type UserRow,
} from '../users/user.repository.js';
import { inviteMessage } from './team.mail.js';
import {
  cancelExpiredInvites,
  cancelInvite,
  consumeInvite,
  findMembers,
  findOpenInvite,
  findPendingInvites,
  findUsableInvite,
  insertInvite,
  inviteSendsWait,
  lockInviteSends,
  memberEmailExists,
  type InviteRow,
} from './team.repository.js';
import type { AcceptInviteBody, InviteBody } from './team.schemas.js';

export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const INVITE_PREFIX = 'fbi_';
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** How many invite emails a business may send: per hour, and to one address per day. */
export interface InviteLimits {
  perBusinessPerHour: number;
  perAddressPerDay: number;
}

export async function getTeam(pool: pg.Pool, businessId: string) {
  const [members, invites] = await Promise.all([findMembers(pool, businessId), findPendingInvites(pool, businessId)]);
  return { members, invites };
}

/**
 * Past either cap on invite emails, a 429 that says which, and when the oldest send that counts leaves
 * its window. Sends are counted, not open invites: cancelling and inviting again is another email.
 */
async function refuseOverLimit(tx: Queryable, businessId: string, email: string, limits: InviteLimits) {
  const business = await inviteSendsWait(tx, businessId, { ms: HOUR_MS, limit: limits.perBusinessPerHour });
  const address = await inviteSendsWait(tx, businessId, { ms: DAY_MS, limit: limits.perAddressPerDay, email });
  if (business === null && address === null) return;
  const seconds = Math.max(1, Math.ceil(Math.max(business ?? 0, address ?? 0) / 1000));
  const reason =
    business !== null
      ? `This business has sent ${limits.perBusinessPerHour} invites in the last hour`
      : `${email} has been invited ${limits.perAddressPerDay} times in the last 24 hours`;
  // The code tells the page which cap it was (its own words); the 429's body says RATE_LIMIT_EXCEEDED.
  const code = business !== null ? 'INVITE_BUSINESS_LIMIT' : 'INVITE_ADDRESS_LIMIT';
  throw new RateLimitError(seconds, `${reason} (cancelled invites count too); retry in ${seconds} s`, code);
}

/**
 * Invites by email. The token goes to the invitee's address only, in a message written in the same
 * transaction and sent after it commits; in development mail mode it is also returned, this once.
 * Invite emails are capped per business and per address (`limits`).
 */
export async function invite(
  pool: pg.Pool,
  mailer: Mailer,
  principal: Principal,
  input: InviteBody,
  limits: InviteLimits,
): Promise<{ row: InviteRow; token: string | undefined }> {
  if (input.role === 'owner' && !mayDo(principal, 'manage_owners')) {
    throw new HttpError(403, 'Only an owner can invite an owner', 'FORBIDDEN', {}, [
      { field: 'role', code: 'owner_role', message: 'only an owner can invite an owner' },
    ]);
  }
  const { businessId } = principal;
  const token = randomToken(INVITE_PREFIX);
  const mailId = newId();
  // the partial unique index on open invites: one pending invite per email and business
  const row = await withUniqueConflict(
    withTransaction(pool, async (tx) => {
      if (await memberEmailExists(tx, businessId, input.email)) {
        throw conflict(`${input.email} is already a member of this business`, [
          { field: 'email', code: 'already_member', message: 'is already a member of this business' },
        ]);
      }
      await lockInviteSends(tx, businessId);
      await refuseOverLimit(tx, businessId, input.email, limits);
      await cancelExpiredInvites(tx, businessId, input.email);
      const business = (await findBusiness(tx, businessId))!;
      const inviter = await findUserById(tx, principal.userId);
      const message = inviteMessage({
        businessName: business.name,
        inviter: inviter ? { name: inviter.name, email: inviter.email } : null,
        role: input.role,
        token,
        link: mailer.link('accept-invite', token),
        expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS),
      });
      await mailer.enqueue(tx, { id: mailId, recipient: input.email, ...message, lifetimeMs: INVITE_LIFETIME_MS });
      const created = await insertInvite(tx, businessId, {
        id: newId(),
        email: input.email,
        role: input.role,
        digest: sha256(token),
        invitedBy: principal.userId,
        lifetimeMs: INVITE_LIFETIME_MS,
        mailId,
        tokenShown: mailer.developmentMode,
      });
      await recordActivity(tx, principal, {
        type: 'invite.created',
        entityType: 'invite',
        entityId: created.id,
        data: { role: created.role },
      });
      return created;
    }),
    `${input.email} already has a pending invite`,
    { field: 'email', code: 'already_invited', message: 'already has a pending invite' },
  );
  mailer.deliver([mailId]);
  return { row, token: mailer.developmentMode ? token : undefined };
}

/** Owners' invites are cancelled by owners only; the message is withdrawn if it has not gone yet. */
export async function cancelTeamInvite(pool: pg.Pool, principal: Principal, id: string): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const open = await findOpenInvite(tx, principal.businessId, id);
    if (!open) throw notFound('Invite');
    if (open.role === 'owner') authorize(principal, 'manage_owners');
    await cancelInvite(tx, principal.businessId, id);
    if (open.mail_id) await withdrawMail(tx, open.mail_id);
    await recordActivity(tx, principal, {
      type: 'invite.cancelled',
      entityType: 'invite',
      entityId: id,
    });
  });
}

const invalidInvite = () => credentialRefused('Invite token is invalid, expired or already used', 'INVALID_INVITE');

/**
 * Accepts an invite. The token is checked first, and nothing else happens (no account lookup, no
 * argon2 work) for one that is not a usable invite. Then:
 * - with a session (`sessionToken`), its user must be the invited one: the membership is added;
 * - without one, for an email that has no account: the account is created with `name` and `password`;
 * - without one, for an email that has an account: a 401 asking to sign in, and nothing about the account.
 * The email counts as verified unless the token was returned to the inviter (development mail mode).
 */
export async function acceptInvite(
  pool: pg.Pool,
  input: AcceptInviteBody,
  session: SessionRow | null,
): Promise<{ user: UserRow; invite: InviteRow }> {
  if (!isRandomToken(INVITE_PREFIX, input.token)) throw invalidInvite();
  const digest = sha256(input.token);
  const invitation = await findUsableInvite(pool, digest);
  if (!invitation) throw invalidInvite();

  const existing = await findUserByEmail(pool, invitation.email);
  if (session) {
    if (!existing || existing.id !== session.user_id) {
      throw forbidden('This invite is for another email address', 'INVITE_FOR_ANOTHER_ACCOUNT');
    }
    if (input.name !== undefined || input.password !== undefined) {
      throw invalidInput([
        { field: '', code: 'account_exists', message: 'name and password are only for a new account' },
      ]);
    }
    return join(pool, digest, existing);
  }
  if (existing) {
    throw new HttpError(
      401,
      'Sign in as the invited user, then accept with the session token (Authorization: Bearer)',
      'SIGN_IN_REQUIRED',
      { 'WWW-Authenticate': 'Bearer' },
    );
  }
  return createAccount(pool, digest, input);
}

async function createAccount(pool: pg.Pool, digest: Buffer, input: AcceptInviteBody) {
  for (const field of ['name', 'password'] as const) {
    if (input[field] === undefined) {
      throw invalidField(field, 'required', 'required to create the account');
    }
  }
  const passwordHash = await hashPassword(input.password!);
  return withUniqueConflict(
    withTransaction(pool, async (tx) => {
      const consumed = await consumeInvite(tx, digest);
      if (!consumed) throw invalidInvite();
      const user = await insertUser(tx, {
        id: newId(),
        email: consumed.email,
        name: input.name!,
        passwordHash,
        emailVerified: !consumed.token_shown,
      });
      await addInvitedMember(tx, consumed, user.id);
      return { user, invite: consumed };
    }),
    'That account was created meanwhile: sign in and accept again',
    { field: 'token', code: 'account_created_meanwhile', message: 'sign in and accept again' },
  );
}

async function join(pool: pg.Pool, digest: Buffer, user: UserRow) {
  return withTransaction(pool, async (tx) => {
    const consumed = await consumeInvite(tx, digest);
    if (!consumed) throw invalidInvite();
    if (await findMember(tx, consumed.business_id, user.id)) {
      throw conflict(`${consumed.email} is already a member of this business`, [
        { field: 'token', code: 'already_member', message: 'is for a business you are already a member of' },
      ]);
    }
    if (!consumed.token_shown) await markEmailVerified(tx, user.id);
    await addInvitedMember(tx, consumed, user.id);
    return { user, invite: consumed };
  });
}

async function addInvitedMember(tx: Queryable, invitation: InviteRow, userId: string) {
  await insertMembership(tx, invitation.business_id, userId, invitation.role);
  await recordActivity(
    tx,
    { businessId: invitation.business_id, userId },
    {
      type: 'member.joined',
      entityType: 'member',
      entityId: userId,
      data: { role: invitation.role, invite_id: invitation.id },
    },
  );
}
