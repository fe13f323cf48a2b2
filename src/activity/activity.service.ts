import { actorOf, type Principal } from '../auth/principal.js';
import type { Queryable } from '../db/database.js';
import { insertActivity, type ActivityEntry } from './activity.repository.js';

/** Who acted where there is no Principal: the admin CLI, the seed command, a user accepting an invite. */
export interface Actor {
  businessId: string;
  /** null: no user (the seed command, a key revoked from the CLI without one) */
  userId: string | null;
}

/** An operator's change through the admin CLI: credited to nobody. */
export const operator = (businessId: string): Actor => ({ businessId, userId: null });

export type ActivityEvent = Omit<ActivityEntry, 'actorUserId' | 'actorApiKeyId'>;

/**
 * Records an event in the business's activity, crediting the caller: a principal's user (and key, when
 * it came through one), or an explicit actor. Called inside the transaction of the change it records,
 * so the two commit or fail together.
 */
export async function recordActivity(db: Queryable, by: Principal | Actor, event: ActivityEvent): Promise<void> {
  const actor = 'kind' in by ? actorOf(by) : { actorUserId: by.userId, actorApiKeyId: null };
  await insertActivity(db, by.businessId, { ...event, ...actor });
}
