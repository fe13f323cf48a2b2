import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

export interface WebhookEndpointRow {
  id: string;
  business_id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  disabled_reason: 'gone' | 'failing' | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Every column of a webhook endpoint, in the order its reads show them, and the view that adds each:
 * `event` (the object of its events, read by read keys and members, who may not list webhooks) and
 * `read` (owners and admins). The URL often holds a credential, so only `read` shows it; the secret is
 * no column of the row at all.
 */
export const WEBHOOK_ENDPOINT_COLUMN_MAP = {
  id: { shownIn: 'event', schema: uuid },
  business_id: { shownIn: null },
  url: { shownIn: 'read', schema: z.string().meta({ description: 'Where events are POSTed' }) },
  events: {
    shownIn: 'event',
    schema: z.array(z.string()).meta({ description: 'Event types it receives; `*` is every type' }),
  },
  description: { shownIn: 'event', schema: z.string().nullable() },
  active: {
    shownIn: 'event',
    schema: z.boolean().meta({ description: 'False when turned off, by a user or by the service' }),
  },
  disabled_reason: {
    shownIn: 'event',
    schema: z.enum(['gone', 'failing']).nullable().meta({
      description: 'Why the service turned it off: `gone` (it answered 410), `failing` (5 days of failures)',
    }),
  },
  created_at: { shownIn: 'event', schema: timestamp, instant: true },
  updated_at: { shownIn: 'event', schema: timestamp, instant: true },
} satisfies ColumnMap<WebhookEndpointRow, 'event' | 'read'>;

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

/** Every column of a webhook delivery, as its read shows them. */
export const WEBHOOK_DELIVERY_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  event_id: {
    shownIn: 'read',
    schema: uuid.meta({ description: 'The `webhook-id` header, the same on every attempt' }),
  },
  event_type: { shownIn: 'read', schema: z.string() },
  status: { shownIn: 'read', schema: z.enum(['pending', 'succeeded', 'failed']) },
  attempts: { shownIn: 'read', schema: z.int().min(0).meta({ description: 'Attempts made so far' }) },
  last_status_code: {
    shownIn: 'read',
    schema: z.int().nullable().meta({ description: 'HTTP status of the last attempt' }),
  },
  last_duration_ms: { shownIn: 'read', schema: z.int().nullable() },
  last_error: { shownIn: 'read', schema: z.string().nullable() },
  last_attempt_at: { shownIn: 'read', schema: timestamp.nullable(), instant: true },
  next_attempt_at: {
    shownIn: 'read',
    schema: timestamp.nullable().meta({ description: 'When it is tried next, while pending' }),
    instant: true,
  },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<WebhookDeliveryRow, 'read'>;
