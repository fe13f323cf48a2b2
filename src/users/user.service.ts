import type pg from 'pg';
import { withTransaction } from '../db/database.js';
import { withUniqueConflict } from '../db/errors.js';
import { newId } from '../shared/ids.js';
import type { Role } from '../shared/schemas.js';
import { hashPassword } from './password.js';
import { findUserByEmail, insertMembership, insertUser, type UserRow } from './user.repository.js';

export interface NewMember {
  email: string;
  name?: string;
  role: Role;
  password?: string;
}

/** Adds a member to a business, creating the user unless one with that email exists. */
export async function addMember(
  pool: pg.Pool,
  businessId: string,
  member: NewMember,
): Promise<UserRow & { role: Role }> {
  const passwordHash = member.password === undefined ? null : await hashPassword(member.password);
  return withUniqueConflict(
    withTransaction(pool, async (tx) => {
      const user =
        (await findUserByEmail(tx, member.email)) ??
        (await insertUser(tx, { id: newId(), email: member.email, name: member.name ?? null, passwordHash }));
      await insertMembership(tx, businessId, user.id, member.role);
      return { ...user, role: member.role };
    }),
    `${member.email} is already a member of this business`,
  );
}
