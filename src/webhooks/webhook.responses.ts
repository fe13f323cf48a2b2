import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { WEBHOOK_DELIVERY_COLUMN_MAP, WEBHOOK_ENDPOINT_COLUMN_MAP } from './webhook.columns.js';

const ENDPOINT_EXAMPLE = {
  id: '0194b2e5-71c3-7a9d-b4e2-6f8a0c2d4e61',
  url: 'https://hooks.cafe-soleil.example/feedback',
  events: ['suggestion.created', 'suggestion.updated'],
  description: 'Our support desk',
  active: true,
  disabled_reason: null,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
};

/** What toWebhookEndpointResponse returns: never the secret. */
export const webhookEndpointSchema = z
  .object(fieldsOf(WEBHOOK_ENDPOINT_COLUMN_MAP, ['event', 'read']))
  .meta({ id: 'WebhookEndpoint', description: 'A URL that receives events, signed', examples: [ENDPOINT_EXAMPLE] });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
/**
 * What toWebhookEventObject returns: an endpoint as `webhook.disabled` shows it. The event feed is read
 * by read keys and members, who may not list webhooks; the URL often holds a credential, so it is left out.
 */
export const webhookEndpointSummarySchema = z.object(fieldsOf(WEBHOOK_ENDPOINT_COLUMN_MAP, ['event'])).meta({
  id: 'WebhookEndpointSummary',
  description: 'A webhook endpoint as events show it: everything but its URL (owners and admins read it)',
  examples: [
    {
      id: ENDPOINT_EXAMPLE.id,
      events: ENDPOINT_EXAMPLE.events,
      description: ENDPOINT_EXAMPLE.description,
      active: false,
      disabled_reason: 'gone',
      created_at: EXAMPLE.createdAt,
      updated_at: EXAMPLE.updatedAt,
    },
  ],
});
export type WebhookEndpointSummary = z.infer<typeof webhookEndpointSummarySchema>;
export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
      .nullable()
      .meta({
        description:
          'The signing secret (Standard Webhooks): shown only here, keep it safe. Null in an Idempotency-Key ' +
          'replay, which never shows it again',
      }),
  })
  .meta({
    id: 'WebhookEndpointWithSecret',
    description: 'A webhook endpoint and its signing secret, shown once',
    examples: [{ ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/n6TQS9E7s4=' }],
  });

export const webhookEndpointPageSchema = offsetEnvelopeSchema(webhookEndpointSchema, 'WebhookEndpointPage');

export const webhookDeliverySchema = z.object(fieldsOf(WEBHOOK_DELIVERY_COLUMN_MAP, ['read'])).meta({
  id: 'WebhookDelivery',
  description: 'One event on its way to one endpoint',
  examples: [
    {
      id: '0194b3f6-0a1b-7c2d-9e3f-4a5b6c7d8e9f',
      event_id: '0194b3f5-2c10-7d4e-8a9b-1c2d3e4f5a6b',
      event_type: 'suggestion.updated',
      status: 'pending',
      attempts: 1,
      last_status_code: 503,
      last_duration_ms: 84,
      last_error: 'HTTP 503',
      last_attempt_at: EXAMPLE.updatedAt,
      next_attempt_at: '2026-02-02T14:05:17.345Z',
      created_at: EXAMPLE.updatedAt,
    },
  ],
});

export const webhookDeliveryPageSchema = offsetEnvelopeSchema(webhookDeliverySchema, 'WebhookDeliveryPage');

export const rotatedSecretSchema = z
  .object({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
      .nullable()
      .meta({
        description:
          'The new signing secret: shown only here. Null in an Idempotency-Key replay, which never shows it again',
      }),
    previous_secret_expires_at: timestamp.meta({ description: 'Until then the old secret signs beside the new one' }),
  })
  .meta({
    id: 'RotatedWebhookSecret',
    description: 'The new signing secret of a webhook endpoint',
    examples: [
      {
        secret: 'whsec_4Zq1nC7mJ0x9bq2c3Yk8dW6tP5sR1uV0aB2cD3eF4gH=',
        previous_secret_expires_at: '2026-02-03T14:05:12.345Z',
      },
    ],
  });

export const testEventSchema = z
  .object({ event_id: uuid.meta({ description: 'The `webhook-id` the endpoint will receive' }) })
  .meta({
    id: 'WebhookTestEvent',
    description: 'A `webhook.test` event queued for one endpoint',
    examples: [{ event_id: '0194b3f7-5d6e-7f80-9a1b-2c3d4e5f6a7b' }],
  });
