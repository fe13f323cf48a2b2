import type { Queryable } from '../db/database.js';

export interface ActivityEntry {
  type: string;
  entityType:
    'suggestion' | 'issue' | 'comment' | 'qr_code' | 'api_key' | 'invite' | 'member' | 'business' | 'location';
  entityId: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  data?: Record<string, unknown>;
}

/** Called inside the transaction of the change it records, so the two commit or fail together. */
export async function insertActivity(db: Queryable, businessId: string, entry: ActivityEntry): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO activity (business_id, type, entity_type, entity_id, actor_user_id, actor_api_key_id, data)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      businessId,
      entry.type,
      entry.entityType,
      entry.entityId,
      entry.actorUserId,
      entry.actorApiKeyId,
      JSON.stringify(entry.data ?? {}),
    ],
  );
}
