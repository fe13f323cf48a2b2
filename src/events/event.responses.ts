import { z } from 'zod';
import { EVENT_TYPES } from '../activity/event.types.js';
import { commentSchema } from '../comments/comment.responses.js';
import { issueSchema } from '../issues/issue.responses.js';
import { qrCodeSchema } from '../qr-codes/qr-code.responses.js';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { suggestionDashboardSchema } from '../suggestions/suggestion.responses.js';
import { webhookEndpointSchema } from './webhook.responses.js';

export const fieldChangesSchema = z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).meta({
  id: 'FieldChanges',
  description: 'Each changed field, with its value before and after',
  examples: [{ status: { from: 'pending', to: 'reviewing' } }],
});

/** The resource as its single-item read (the business-scoped family's, for suggestions) returned it. */
const eventObject = z.union([
  suggestionDashboardSchema,
  issueSchema,
  commentSchema,
  qrCodeSchema,
  webhookEndpointSchema,
]);

export const EVENT_EXAMPLE = {
  id: '0194b3f5-2c10-7d4e-8a9b-1c2d3e4f5a6b',
  type: 'suggestion.updated',
  created_at: EXAMPLE.updatedAt,
  business_id: EXAMPLE.businessId,
  data: {
    object: exampleOf(suggestionDashboardSchema),
    changes: { status: { from: 'pending', to: 'reviewing' } },
  },
};

export const eventSchema = z
  .object({
    id: uuid.meta({ description: 'Also the `webhook-id` of its deliveries' }),
    type: z.enum(EVENT_TYPES),
    created_at: timestamp,
    business_id: uuid,
    data: z.object({
      object: eventObject,
      changes: fieldChangesSchema.optional().meta({ description: 'On `*.updated` events: what changed' }),
    }),
  })
  .meta({
    id: 'Event',
    description: 'A change in the business: the resource as its single-item read returned it then',
    examples: [EVENT_EXAMPLE],
  });

export const eventFeedSchema = z
  .object({
    data: z.array(eventSchema),
    next_cursor: z.string().nullable().meta({
      description: 'Pass as `after` to read on; null only when nothing was ever returned',
    }),
    has_more: z.boolean().meta({ description: 'More events follow right away' }),
  })
  .meta({
    id: 'EventFeed',
    description: 'Events after the cursor, oldest first',
    examples: [{ data: [EVENT_EXAMPLE], next_cursor: 'WyI3NTMiLDEsMTc2OTg1MTkxMjM0NV0', has_more: false }],
  });
