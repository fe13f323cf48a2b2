import { defineFamilies } from '../http/families.js';
import { ok } from '../http/reply.js';
import type { Feature } from '../http/route.js';
import { toEventResponse } from './event.presenter.js';
import { eventFeedSchema, webhookPayloads } from './event.responses.js';
import { listEventsQuery } from './event.schemas.js';
import { readFeed } from './event.service.js';

const description =
  'Events oldest first, after the cursor `after` (the `next_cursor` of the previous answer). A client that ' +
  'stores `next_cursor` and asks again never misses an event and never sees one twice, even when ' +
  'transactions commit out of order: an event is listed only once every earlier one is final. Events are ' +
  'kept `EVENT_RETENTION_DAYS` (30 by default): an older cursor is a 410.';

const queryNotes = {
  after: 'The `next_cursor` of the previous answer; absent or empty: from the oldest event kept',
  limit: 'Events per answer, 1 to 100',
  type: 'Only these types, comma-separated: `suggestion.updated,issue.updated`',
};

/** The same feed in both families. */
const feed = defineFamilies({
  method: 'get',
  path: '/events',
  tag: 'Events',
  summary: 'Read the event feed',
  description,
  action: 'read',
  queryNotes,
  responses: [{ status: 200, description: 'Events after the cursor', json: eventFeedSchema }],
  errors: [410],
  v1: { operationId: 'listEvents', query: listEventsQuery },
  business: { operationId: 'listBusinessEvents', query: listEventsQuery },
  handler: async ({ principal, query, services, db }) => {
    const filter = { after: query.after, limit: query.limit, types: query.type ?? null };
    const page = await readFeed(db, principal.businessId, filter, services.eventRetentionDays);
    return ok({ data: page.rows.map(toEventResponse), next_cursor: page.nextCursor, has_more: page.hasMore });
  },
});

/** The pull side of events: the same feed in both families. */
export const eventFeature: Feature = {
  tags: [{ name: 'Events', description: 'Every change, to pull as a feed or receive by webhook' }],
  routes: [feed.v1, feed.business],
  // What a webhook delivery carries is the feed's event: documented with it, pushed by webhooks/.
  webhooks: webhookPayloads,
};
