import { presenterOf } from '../db/columns.js';
import {
  WEBHOOK_DELIVERY_COLUMN_MAP,
  WEBHOOK_ENDPOINT_COLUMN_MAP,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhook.columns.js';
import type { WebhookEndpoint, WebhookEndpointSummary } from './webhook.responses.js';

// Each read shows exactly the columns its views add in the column maps, in the maps' order.
const endpointRead = presenterOf(WEBHOOK_ENDPOINT_COLUMN_MAP, ['event', 'read']);
const endpointEventObject = presenterOf(WEBHOOK_ENDPOINT_COLUMN_MAP, ['event']);
const deliveryRead = presenterOf(WEBHOOK_DELIVERY_COLUMN_MAP, ['read']);

/** Every field a client may see: never the secret. */
export function toWebhookEndpointResponse(endpoint: WebhookEndpointRow): WebhookEndpoint {
  return endpointRead(endpoint);
}

/**
 * An endpoint as its events (`webhook.disabled`) show it: without the URL, which often holds a
 * credential, since the event feed is read by read keys and members, who may not list webhooks.
 */
export function toWebhookEventObject(endpoint: WebhookEndpointRow): WebhookEndpointSummary {
  return endpointEventObject(endpoint);
}

/** A delivery no longer pending is tried no more: it shows no next attempt. */
export function toWebhookDeliveryResponse(delivery: WebhookDeliveryRow) {
  const presented = deliveryRead(delivery);
  return delivery.status === 'pending' ? presented : { ...presented, next_attempt_at: null };
}
