import type { FieldChanges } from '../shared/changes.js';

/**
 * Every event type the service publishes, in the feed and to webhooks. A new type is one line here and
 * one `publish` beside the recordActivity call of the change that emits it.
 */
export const EVENT_TYPES = [
  'suggestion.created',
  'suggestion.updated',
  'suggestion.voted',
  'suggestion.merged',
  'suggestion.unmerged',
  'issue.created',
  'issue.updated',
  'comment.created',
  'qr_code.created',
  'qr_code.updated',
  'qr_code.deleted',
  'changelog.published',
  'changelog.updated',
  'changelog.deleted',
  'webhook.disabled',
  'import.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only to the endpoint it is asked for (POST .../webhooks/:id/test); never in the feed. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What an event carries: the resource as its single-item read shows it, and what changed. */
export interface EventData {
  object: unknown;
  changes?: FieldChanges;
}
