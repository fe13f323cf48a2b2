import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

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

/** What toWebhookEndpointResponse returns, field by field: never the secret. */
export const webhookEndpointSchema = z
  .object({
    id: uuid,
    url: z.string().meta({ description: 'Where events are POSTed' }),
    events: z.array(z.string()).meta({ description: 'Event types it receives; `*` is every type' }),
    description: z.string().nullable(),
    active: z.boolean().meta({ description: 'False when turned off, by a user or by the service' }),
    disabled_reason: z.enum(['gone', 'failing']).nullable().meta({
      description: 'Why the service turned it off: `gone` (it answered 410), `failing` (5 days of failures)',
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint', description: 'A URL that receives events, signed', examples: [ENDPOINT_EXAMPLE] });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
