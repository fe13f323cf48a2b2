import type { WebhookDeliveryRow, WebhookEndpointRow } from './webhook.repository.js';
import type { WebhookEndpoint, WebhookEndpointSummary } from './webhook.responses.js';

/** Every field a client may see: never the secret. */
export function toWebhookEndpointResponse(endpoint: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    disabled_reason: endpoint.disabled_reason,
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

/**
 * An endpoint as its events (`webhook.disabled`) show it: without the URL, which often holds a
 * credential, since the event feed is read by read keys and members, who may not list webhooks.
 */
export function toWebhookEventObject(endpoint: WebhookEndpointRow): WebhookEndpointSummary {
  return {
    id: endpoint.id,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    disabled_reason: endpoint.disabled_reason,
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

export function toWebhookDeliveryResponse(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.last_status_code,
    last_duration_ms: delivery.last_duration_ms,
    last_error: delivery.last_error,
    last_attempt_at: delivery.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: delivery.status === 'pending' ? (delivery.next_attempt_at?.toISOString() ?? null) : null,
    created_at: delivery.created_at.toISOString(),
  };
}
