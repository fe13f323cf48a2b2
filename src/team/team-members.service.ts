import type pg from 'pg';
import { operator, recordActivity } from '../outbox/outbox.service.js';
import { authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { conflict, notFound } from '../errors/http-error.js';
import { unassignIssuesOf } from '../issues/issue.repository.js';
import type { Role } from '../shared/schemas.js';
import { findMember, type MemberRow } from '../users/user.repository.js';
import { countOwners, deleteMembership, updateMemberRole } from './team.repository.js';

/**
 * Changing and removing members. `by` is who acts: a member's principal, whose rights are checked
 * here against the target's role, or null for an operator through the admin CLI, who may do
 * anything but leave a business without an owner.
 *
 * Every change first locks the business row, so two concurrent changes (two owners demoting each
 * other) are serialised and never both pass the last-owner check.
 */
async function lockedMember(tx: Queryable, businessId: string, userId: string): Promise<MemberRow> {
  await findBusiness(tx, businessId, { forUpdate: true });
  const member = await findMember(tx, businessId, userId);
  if (!member) throw notFound('Member');
  return member;
}

/** The last owner's refusal: `code` says which (`last_owner` demoted, `last_owner_leave` leaving or removed). */
async function requireAnotherOwner(tx: Queryable, businessId: string, code: string, message: string): Promise<void> {
  if ((await countOwners(tx, businessId)) <= 1) {
    throw conflict(message, [{ field: code === 'last_owner' ? 'role' : '', code, message }]);
  }
}

export async function changeMemberRole(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  userId: string,
  role: Role,
): Promise<MemberRow> {
  return withTransaction(pool, async (tx) => {
    const member = await lockedMember(tx, businessId, userId);
    if (by && (member.role === 'owner' || role === 'owner')) authorize(by, 'manage_owners');
    if (member.role === role) return member;
    if (member.role === 'owner') {
      await requireAnotherOwner(
        tx,
        businessId,
        'last_owner',
        'The last owner cannot be demoted: make another member owner first',
      );
    }
    await updateMemberRole(tx, businessId, userId, role);
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'member.updated',
      entityType: 'member',
      entityId: userId,
      data: { changes: { role: { from: member.role, to: role } } },
    });
    return { ...member, role };
  });
}

/**
 * Removes a member, or lets one leave (`by` is the member): their sessions stay valid for their
 * other businesses, but the next request to this one is a 403, as every request checks membership.
 * Issues assigned to them become unassigned (`assigned` ones `open` again), each with its activity.
 */
export async function removeMember(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  userId: string,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const member = await lockedMember(tx, businessId, userId);
    const leaving = by?.userId === userId && by.kind === 'user';
    if (by && !leaving) authorize(by, member.role === 'owner' ? 'manage_owners' : 'manage_business');
    if (member.role === 'owner') {
      await requireAnotherOwner(
        tx,
        businessId,
        'last_owner_leave',
        'The last owner cannot leave or be removed: make another member owner first',
      );
    }
    for (const issue of await unassignIssuesOf(tx, businessId, userId)) {
      const snapshot = (status: string, assignee: string | null) => ({
        status,
        priority: issue.priority,
        assignee_id: assignee,
      });
      await recordActivity(tx, by ?? operator(businessId), {
        type: 'issue.updated',
        entityType: 'issue',
        entityId: issue.id,
        data: {
          from: snapshot(issue.status_before, userId),
          to: snapshot(issue.status, null),
          reason: 'member.removed',
        },
      });
    }
    await deleteMembership(tx, businessId, userId);
    await recordActivity(tx, by ?? operator(businessId), {
      type: leaving ? 'member.left' : 'member.removed',
      entityType: 'member',
      entityId: userId,
      data: { role: member.role },
    });
  });
}
