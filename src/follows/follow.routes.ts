import { ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { followerListSchema } from './follow.responses.js';
import { listFollowers } from './follow.service.js';

/** Who follows a suggestion by email: addresses only for owners and admins, never through a key. */
export const followFeature: Feature = {
  tags: [],
  routes: [
    defineRoute({
      tag: 'Dashboard suggestions',
      guard: 'business',
      method: 'get',
      path: '/businesses/:business_id/suggestions/:id/followers',
      resource: 'Suggestion',
      params: { id: 'The suggestion; a malformed, unknown or other business’s id is a 404' },
      operationId: 'listSuggestionFollowers',
      summary: 'List the confirmed followers of a suggestion',
      description:
        'Customers who asked on the public page to be emailed when the suggestion moves, and confirmed their ' +
        'address (docs/notifications.md). Their count is `follower_count` on the suggestion.',
      action: 'read_followers',
      responses: [{ status: 200, description: 'The followers', json: followerListSchema }],
      handler: async ({ principal, id, db }) => {
        const rows = await listFollowers(db, principal.businessId, id);
        return ok({
          data: rows.map((row) => ({ email: row.email, confirmed_at: row.confirmed_at.toISOString() })),
          total: rows.length,
        });
      },
    }),
  ],
};
