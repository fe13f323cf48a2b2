import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { resourceTable } from '../db/resource-table.js';
import {
  WEBHOOK_DELIVERY_COLUMN_MAP,
  WEBHOOK_ENDPOINT_COLUMN_MAP,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhook.columns.js';

export type { WebhookDeliveryRow, WebhookEndpointRow };

const COLUMNS = columnList(WEBHOOK_ENDPOINT_COLUMN_MAP);
const DELIVERY_COLUMNS = columnList(WEBHOOK_DELIVERY_COLUMN_MAP);

export async function insertEndpoint(
  db: Queryable,
  businessId: string,
  endpoint: { id: string; url: string; events: string[]; description: string | null; secret: string },
): Promise<WebhookEndpointRow> {
  const { rows } = await db.query<WebhookEndpointRow>(
    /* sql */ `
    INSERT INTO webhook_endpoints (id, business_id, url, events, description, secret)
    VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING ${COLUMNS}`,
    [endpoint.id, businessId, endpoint.url, endpoint.events, endpoint.description, endpoint.secret],
  );
  return rows[0]!;
}

/** One endpoint and a page of them, oldest first, as every plain resource reads them. */
export const ENDPOINTS = resourceTable<WebhookEndpointRow, 'created_at'>({
  table: 'webhook_endpoints',
  columns: COLUMNS,
  resource: 'Webhook',
  sorts: { created_at: 'created_at' },
});

export async function countEndpoints(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    'SELECT count(*) AS total FROM webhook_endpoints WHERE business_id = $1',
    [businessId],
  );
  return rows[0]!.total;
}

/** A user's change; turning an endpoint on again clears why the service had turned it off. */
export async function updateEndpoint(
  db: Queryable,
  businessId: string,
  id: string,
  changes: { url?: string; events?: string[]; description?: string | null; active?: boolean },
): Promise<WebhookEndpointRow | null> {
  const { rows } = await db.query<WebhookEndpointRow>(
    /* sql */ `
    UPDATE webhook_endpoints
    SET url = COALESCE($3, url),
        events = COALESCE($4, events),
        description = CASE WHEN $5::boolean THEN $6 ELSE description END,
        active = COALESCE($7, active),
        disabled_reason = CASE WHEN $7::boolean IS NOT NULL THEN NULL ELSE disabled_reason END,
        failing_since = CASE WHEN $7::boolean THEN NULL ELSE failing_since END,
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [
      businessId,
      id,
      changes.url ?? null,
      changes.events ?? null,
      changes.description !== undefined,
      changes.description ?? null,
      changes.active ?? null,
    ],
  );
  return rows[0] ?? null;
}

export async function deleteEndpoint(db: Queryable, businessId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_endpoints WHERE business_id = $1 AND id = $2', [
    businessId,
    id,
  ]);
  return rowCount === 1;
}

/** The new secret signs from now on; the old one beside it until `overlapMs` from now. */
export async function rotateEndpointSecret(
  db: Queryable,
  businessId: string,
  id: string,
  secret: string,
  overlapMs: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE webhook_endpoints
    SET previous_secret = secret,
        previous_secret_expires_at = now() + make_interval(secs => $4::double precision / 1000),
        secret = $3,
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id, secret, overlapMs],
  );
  return rowCount === 1;
}

/** A delivery of one event to one endpoint, due at once (the test event, which the feed never shows). */
export async function insertDelivery(
  db: Queryable,
  businessId: string,
  delivery: { id: string; endpointId: string; eventId: string; eventType: string; payload: string },
): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO webhook_deliveries (id, business_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
    VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [delivery.id, businessId, delivery.endpointId, delivery.eventId, delivery.eventType, delivery.payload],
  );
}

export async function findDeliveries(
  db: Queryable,
  businessId: string,
  endpointId: string,
  page: { limit: number; offset: number },
): Promise<WebhookDeliveryRow[]> {
  const { rows } = await db.query<WebhookDeliveryRow>(
    /* sql */ `
    SELECT ${DELIVERY_COLUMNS}
    FROM webhook_deliveries
    WHERE business_id = $1
      AND endpoint_id = $2
    ORDER BY created_at DESC, id DESC
    LIMIT $3
    OFFSET $4`,
    [businessId, endpointId, page.limit, page.offset],
  );
  return rows;
}

export async function countDeliveries(db: Queryable, businessId: string, endpointId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    'SELECT count(*) AS total FROM webhook_deliveries WHERE business_id = $1 AND endpoint_id = $2',
    [businessId, endpointId],
  );
  return rows[0]!.total;
}

/** Queues a delivery again, due now, with the same event id and a fresh retry schedule; null when unknown. */
export async function requeueDelivery(
  db: Queryable,
  businessId: string,
  endpointId: string,
  id: string,
): Promise<WebhookDeliveryRow | null> {
  const { rows } = await db.query<WebhookDeliveryRow>(
    /* sql */ `
    UPDATE webhook_deliveries
    SET status = 'pending',
        attempts = 0,
        next_attempt_at = now()
    WHERE business_id = $1
      AND endpoint_id = $2
      AND id = $3
    RETURNING ${DELIVERY_COLUMNS}`,
    [businessId, endpointId, id],
  );
  return rows[0] ?? null;
}
