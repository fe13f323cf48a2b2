import { defineRoute, type Feature, type Guard, type RouteContext } from '../http/route.js';
import type { Principal } from '../auth/principal.js';
import { ok } from '../http/reply.js';
import { toEventResponse } from './event.presenter.js';
import { eventFeedSchema } from './event.responses.js';
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

async function feed({ principal, query, services, db }: RouteContext<Guard, typeof listEventsQuery, undefined>) {
  const page = await readFeed(
    db,
    (principal as Principal).businessId,
    { after: query.after, limit: query.limit, types: query.type ?? null },
    services.eventRetentionDays,
  );
  return ok({ data: page.rows.map(toEventResponse), next_cursor: page.nextCursor, has_more: page.hasMore });
}

const common = {
  method: 'get' as const,
  tag: 'Events',
  summary: 'Read the event feed',
  description,
  action: 'read' as const,
  query: listEventsQuery,
  queryNotes,
  responses: [{ status: 200 as const, description: 'Events after the cursor', json: eventFeedSchema }],
  errors: [410 as const],
};

/** The pull side of events: the same feed in both families. */
export const eventFeature: Feature = {
  tags: [{ name: 'Events', description: 'Every change, to pull as a feed or receive by webhook' }],
  routes: [
    defineRoute({ ...common, guard: 'api_key', path: '/api/v1/events', operationId: 'listEvents', handler: feed }),
    defineRoute({
      ...common,
      guard: 'business',
      path: '/businesses/:business_id/events',
      operationId: 'listBusinessEvents',
      handler: feed,
    }),
  ],
};
