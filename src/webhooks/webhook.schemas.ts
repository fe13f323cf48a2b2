import { z } from 'zod';
import { EVENT_TYPES } from '../outbox/event.types.js';
import { offsetParams, optionalText, patchBody } from '../shared/schemas.js';

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
  .max(WEBHOOK_URL_MAX)
  .refine((url) => !/[\s]/.test(url), { message: 'must not contain white space', params: { code: 'white_space' } })
  .refine((url) => URL.canParse(url) && new URL(url).username === '' && new URL(url).password === '', {
    message: 'must not carry a user name or password',
    params: { code: 'url_credentials' },
  })
  .meta({ description: 'https (http only where WEBHOOK_ALLOW_PRIVATE_NETWORKS is on), to a public address' });

const eventTypes = z
  .array(z.enum([...EVENT_TYPES, '*']))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .transform((types) => [...new Set(types)])
  .meta({ description: 'The event types it receives, or `["*"]` for all' });

export const createWebhookBody = z
  .strictObject({
    url: webhookUrl,
    events: eventTypes,
    description: optionalText(WEBHOOK_DESCRIPTION_MAX),
  })
  .meta({
    examples: [
      {
        url: 'https://hooks.cafe-soleil.example/feedback',
        events: ['suggestion.created', 'suggestion.updated'],
        description: 'Our support desk',
      },
    ],
  });
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const updateWebhookBody = patchBody({
  url: webhookUrl.optional(),
  events: eventTypes.optional(),
  description: optionalText(WEBHOOK_DESCRIPTION_MAX).nullable(),
  active: z.boolean().optional(),
}).meta({ examples: [{ events: ['*'], active: true }] });
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

export const listWebhooksQuery = z.strictObject({ ...offsetParams });
export const listDeliveriesQuery = z.strictObject({ ...offsetParams });
