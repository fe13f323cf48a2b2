import type pg from 'pg';
import { withTransaction } from '../db/database.js';
import { newId } from '../shared/ids.js';
import type { Plan } from '../shared/schemas.js';
import { findUserByEmail, insertMembership, insertUser } from '../users/user.repository.js';
import { insertBusiness } from './business.repository.js';

export interface NewBusiness {
  name: string;
  plan: Plan;
  ownerEmail?: string;
  approvalRequired?: boolean;
}

/** A business always has an owner: the user with the given email, or a generated placeholder. */
export async function createBusiness(pool: pg.Pool, input: NewBusiness) {
  return withTransaction(pool, async (tx) => {
    const business = await insertBusiness(tx, {
      id: newId(),
      name: input.name,
      plan: input.plan,
      approvalRequired: input.approvalRequired ?? false,
    });
    const email = input.ownerEmail ?? `owner+${business.id}@users.invalid`;
    const owner =
      (await findUserByEmail(tx, email)) ??
      (await insertUser(tx, { id: newId(), email, name: null, passwordHash: null }));
    await insertMembership(tx, business.id, owner.id, 'owner');
    return { business, owner };
  });
}
