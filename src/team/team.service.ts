import type pg from 'pg';
import { insertActivity } from '../activity/activity.repository.js';
import { withTransaction } from '../db/database.js';
import { hasPgCode, PG_UNIQUE_VIOLATION } from '../db/errors.js';
import { actorOf, type Principal } from '../http/auth.js';
import { authorize } from '../http/authorize.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { randomToken } from '../shared/random.js';
import { hashPassword } from '../users/password.js';
import { findMember, findUserByEmail, insertMembership, insertUser } from '../users/user.repository.js';
import {
  cancelExpiredInvites,
  cancelInvite,
  consumeInvite,
  findMembers,
  findPendingInvites,
  insertInvite,
  memberEmailExists,
} from './team.repository.js';
import type { AcceptedInvite } from './team.responses.js';
import type { AcceptInviteBody, InviteBody } from './team.schemas.js';

export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const INVITE_PREFIX = 'fbi_';

export async function getTeam(pool: pg.Pool, businessId: string) {
  const [members, invites] = await Promise.all([findMembers(pool, businessId), findPendingInvites(pool, businessId)]);
  return { members, invites };
}

/** Invites by email; the one-time accept token is returned here and never again. */
export async function invite(pool: pg.Pool, principal: Principal, input: InviteBody) {
  if (input.role === 'owner') authorize(principal, 'invite_owner');
  const { businessId } = principal;
  const token = randomToken(INVITE_PREFIX);
  try {
    return await withTransaction(pool, async (tx) => {
      if (await memberEmailExists(tx, businessId, input.email)) {
        throw conflict(`${input.email} is already a member of this business`);
      }
      await cancelExpiredInvites(tx, businessId, input.email);
      const row = await insertInvite(tx, businessId, {
        id: newId(),
        email: input.email,
        role: input.role,
        digest: sha256(token),
        invitedBy: principal.userId,
        lifetimeMs: INVITE_LIFETIME_MS,
      });
      await insertActivity(tx, businessId, {
        type: 'invite.created',
        entityType: 'invite',
        entityId: row.id,
        ...actorOf(principal),
        data: { role: row.role },
      });
      return { row, token };
    });
  } catch (err) {
    // the partial unique index on open invites: one pending invite per email and business
    if (hasPgCode(err, PG_UNIQUE_VIOLATION)) throw conflict(`${input.email} already has a pending invite`);
    throw err;
  }
}

export async function cancelTeamInvite(pool: pg.Pool, principal: Principal, id: string): Promise<void> {
  await withTransaction(pool, async (tx) => {
    if (!(await cancelInvite(tx, principal.businessId, id))) throw notFound('Invite');
    await insertActivity(tx, principal.businessId, {
      type: 'invite.cancelled',
      entityType: 'invite',
      entityId: id,
      ...actorOf(principal),
    });
  });
}

/**
 * Accepting creates the user, or adds the membership to the existing user with that email (whose
 * name and password are left as they are).
 */
export async function acceptInvite(pool: pg.Pool, input: AcceptInviteBody): Promise<AcceptedInvite> {
  const passwordHash = await hashPassword(input.password);
  return withTransaction(pool, async (tx) => {
    const invitation = await consumeInvite(tx, sha256(input.token));
    if (!invitation) throw badRequest('Invite token is invalid, expired or already used', 'INVALID_INVITE');
    const existing = await findUserByEmail(tx, invitation.email);
    const user =
      existing ?? (await insertUser(tx, { id: newId(), email: invitation.email, name: input.name, passwordHash }));
    if (await findMember(tx, invitation.business_id, user.id)) {
      throw conflict(`${invitation.email} is already a member of this business`);
    }
    await insertMembership(tx, invitation.business_id, user.id, invitation.role);
    await insertActivity(tx, invitation.business_id, {
      type: 'member.joined',
      entityType: 'member',
      entityId: user.id,
      actorUserId: user.id,
      actorApiKeyId: null,
      data: { role: invitation.role, invite_id: invitation.id },
    });
    return {
      user: { id: user.id, email: user.email, name: user.name },
      business_id: invitation.business_id,
      role: invitation.role,
    };
  });
}
