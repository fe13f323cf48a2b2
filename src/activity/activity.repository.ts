import type { Queryable } from '../db/database.js';
import { DELIVERY_CHANNEL } from './event.bus.js';
import type { EventData } from './event.types.js';

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

const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Writes an event in the caller's transaction and, beside it, one delivery for each active endpoint
 * of the business that takes this type. Answers how many deliveries were queued.
 */
export async function insertEvent(
  db: Queryable,
  businessId: string,
  event: { id: string; type: string; data: EventData },
): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    WITH event AS (
      INSERT INTO events (id, business_id, type, data)
      VALUES ($1, $2, $3, $4)
      RETURNING id, type, data, created_at
    )
    INSERT INTO webhook_deliveries (id, business_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
    SELECT gen_random_uuid(), $2, e.id, event.id, event.type,
      json_build_object(
        'type', event.type,
        'timestamp', to_char(event.created_at AT TIME ZONE 'UTC', ${UTC_MS}),
        'data', event.data)::text,
      event.created_at
    FROM webhook_endpoints e
    CROSS JOIN event
    WHERE e.business_id = $2
      AND e.active
      AND ($3 = ANY (e.events) OR '*' = ANY (e.events))`,
    [event.id, businessId, event.type, JSON.stringify(event.data)],
  );
  const queued = rowCount ?? 0;
  if (queued > 0) await db.query('SELECT pg_notify($1, $2)', [DELIVERY_CHANNEL, businessId]);
  return queued;
}
