import { z } from 'zod';
import { TEST_EVENT_TYPE, type EventType } from '../outbox/event.types.js';
import { changelogEntrySchema } from '../changelog/changelog.responses.js';
import { commentSchema } from '../comments/comment.responses.js';
import { importReportSchema } from '../imports/import.responses.js';
import { issueSchema } from '../issues/issue.responses.js';
import { qrCodeSchema } from '../qr-codes/qr-code.responses.js';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { suggestionDashboardSchema } from '../suggestions/suggestion.responses.js';
import { webhookEndpointSchema, webhookEndpointSummarySchema } from '../webhooks/webhook.responses.js';

export const fieldChangesSchema = z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).meta({
  id: 'FieldChanges',
  description: 'Each changed field, with its value before and after',
  examples: [{ status: { from: 'pending', to: 'reviewing' } }],
});

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

interface Payload {
  type: EventType | typeof TEST_EVENT_TYPE;
  object: z.ZodType;
  changes: boolean;
  summary: string;
}

/** What each event type carries as its object, and whether it says what changed. */
const PAYLOADS: Payload[] = [
  { type: 'suggestion.created', object: suggestionDashboardSchema, changes: false, summary: 'A suggestion was made' },
  {
    type: 'suggestion.updated',
    object: suggestionDashboardSchema,
    changes: true,
    summary:
      'A suggestion changed: status, priority, visibility, review, its public reply, its tags, or its counts by a merge',
  },
  {
    type: 'suggestion.voted',
    object: suggestionDashboardSchema,
    changes: true,
    summary: 'A vote was added or removed: the suggestion with its new count',
  },
  {
    type: 'suggestion.merged',
    object: suggestionDashboardSchema,
    changes: true,
    summary:
      'A suggestion was merged into another (`changes.merged_into`); the other’s new counts follow as `suggestion.updated`',
  },
  {
    type: 'suggestion.unmerged',
    object: suggestionDashboardSchema,
    changes: true,
    summary: 'A merged suggestion was taken out of its merge, with its own votes back',
  },
  { type: 'issue.created', object: issueSchema, changes: false, summary: 'An issue was reported' },
  {
    type: 'issue.updated',
    object: issueSchema,
    changes: true,
    summary: 'An issue changed: status, priority, assignee, resolved_at or its tags',
  },
  { type: 'comment.created', object: commentSchema, changes: false, summary: 'A suggestion or an issue got a comment' },
  { type: 'qr_code.created', object: qrCodeSchema, changes: false, summary: 'A QR code was made' },
  {
    type: 'qr_code.updated',
    object: qrCodeSchema,
    changes: true,
    summary: 'A QR code was renamed or turned on or off',
  },
  { type: 'qr_code.deleted', object: qrCodeSchema, changes: false, summary: 'A QR code was deleted: as it was' },
  {
    type: 'changelog.published',
    object: changelogEntrySchema,
    changes: false,
    summary: 'A changelog entry was published: the public page, the feed and `/api/v1/changelog` show it now',
  },
  {
    type: 'changelog.updated',
    object: changelogEntrySchema,
    changes: true,
    summary: 'A published changelog entry changed: its title, body or suggestions (a draft’s changes are no event)',
  },
  {
    type: 'changelog.deleted',
    object: changelogEntrySchema,
    changes: false,
    summary: 'A published changelog entry was deleted: as it was (a draft’s deletion is no event)',
  },
  {
    type: 'webhook.disabled',
    object: webhookEndpointSummarySchema,
    changes: false,
    summary: 'The service turned a webhook endpoint off (a 410, or 5 days of failures)',
  },
  {
    type: 'import.completed',
    object: importReportSchema,
    changes: false,
    summary: 'A CSV import was written: its report (no event is published per imported item)',
  },
  {
    type: 'webhook.test',
    object: webhookEndpointSchema,
    changes: false,
    summary: 'Sent on request to one endpoint (POST .../webhooks/{id}/test); never in the feed',
  },
];

const EXAMPLE_CHANGES: Record<string, unknown> = {
  'suggestion.updated': { status: { from: 'pending', to: 'reviewing' } },
  'suggestion.voted': { upvote_count: { from: 11, to: 12 } },
  'suggestion.merged': {
    merged_into: { from: null, to: EXAMPLE.suggestionId },
    upvote_count: { from: 3, to: 0 },
  },
  'suggestion.unmerged': {
    merged_into: { from: EXAMPLE.suggestionId, to: null },
    upvote_count: { from: 0, to: 3 },
  },
  'issue.updated': { status: { from: 'assigned', to: 'resolved' } },
  'qr_code.updated': { active: { from: true, to: false } },
  'changelog.updated': { title: { from: 'Oat milk', to: 'Oat milk is here' } },
};

const pascalCase = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** An event's `data`: the resource, and on a change what changed (every such event says it). */
const dataSchema = ({ object, changes }: Payload) =>
  z.object({ object, ...(changes ? { changes: fieldChangesSchema } : {}) });

const dataExample = ({ type, object, changes }: Payload) => ({
  object: exampleOf(object),
  ...(changes ? { changes: EXAMPLE_CHANGES[type] } : {}),
});

type Member = z.ZodObject<{ type: z.ZodLiteral<string> }>;

/**
 * One schema per type, joined on `type`: a `oneOf` with an OpenAPI discriminator whose mapping names
 * each type's component, so a generated client narrows an event by its type to its object.
 */
function joinedOnType(members: { type: string; schema: Member }[], meta: { id: string; description: string }) {
  const mapping = Object.fromEntries(
    members.map(({ type, schema }) => [type, `#/components/schemas/${z.globalRegistry.get(schema)!.id!}`]),
  );
  const schemas = members.map(({ schema }) => schema) as [Member, ...Member[]];
  return z
    .discriminatedUnion('type', schemas)
    .meta({ ...meta, examples: [exampleOf(schemas[0])], discriminator: { propertyName: 'type', mapping } });
}

/** An event in the feed, one schema per type (`webhook.test` is never in the feed). */
const feedEventSchemas = PAYLOADS.filter((payload) => payload.type !== TEST_EVENT_TYPE).map((payload) => ({
  type: payload.type,
  schema: z
    .object({
      id: uuid.meta({ description: 'Also the `webhook-id` of its deliveries' }),
      type: z.literal(payload.type),
      created_at: timestamp,
      business_id: uuid,
      data: dataSchema(payload),
    })
    .meta({
      id: `${pascalCase(payload.type)}Event`,
      description: payload.summary,
      examples: [{ ...EVENT_EXAMPLE, type: payload.type, data: dataExample(payload) }],
    }),
}));

export const eventSchema = joinedOnType(feedEventSchemas, {
  id: 'Event',
  description: 'A change in the business, one schema per `type`: the resource as its single-item read returned it then',
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

/** The body of each webhook, by event type: `{type, timestamp, data}` (Standard Webhooks). */
const webhookBodies = PAYLOADS.map((payload) => ({
  type: payload.type,
  summary: payload.summary,
  schema: z
    .object({
      type: z.literal(payload.type),
      timestamp: timestamp.meta({ description: 'When the event happened (the event’s created_at)' }),
      data: dataSchema(payload),
    })
    .meta({
      id: `${pascalCase(payload.type)}Webhook`,
      description: payload.summary,
      examples: [{ type: payload.type, timestamp: EXAMPLE.updatedAt, data: dataExample(payload) }],
    }),
}));

/** Whatever a webhook endpoint receives, one schema per `type`: what a receiver's generated types narrow. */
const webhookPayloadSchema = joinedOnType(webhookBodies, {
  id: 'WebhookPayload',
  description: 'The body of any webhook, one schema per `type`',
});

/** Each webhook: its own body, in the union every endpoint's receiver reads. */
export const webhookPayloads = webhookBodies.map(({ type, summary, schema }) => ({
  type,
  summary,
  body: schema,
  joined: webhookPayloadSchema,
}));
