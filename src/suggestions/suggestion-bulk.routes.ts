import { ok } from '../http/reply.js';
import { defineRoute } from '../http/route.js';
import { bulkSuggestionsBody, bulkSuggestionsSchema, changeSuggestions } from './suggestion-bulk.js';
import { toSuggestionDashboardResponse } from './suggestion.presenter.js';

/** The inbox's bulk change (Approve or Reject the selected, a status or priority for all of them). */
export const bulkChange = defineRoute({
  tag: 'Dashboard suggestions',
  guard: 'business',
  method: 'post',
  path: '/businesses/:business_id/suggestions/bulk',
  operationId: 'bulkUpdateBusinessSuggestions',
  summary: 'Change several suggestions at once (dashboard)',
  description:
    'Up to 100 `ids`, each changed as its own PATCH would be (`status`, `priority`, or a `review` ' +
    'decision), in one transaction: all of them or none. An id that is not a suggestion of this ' +
    'business is a 404 whose `errors` name it (`ids.<n>`); a review decision on one not awaiting ' +
    'review is a 409. Each change is its own `suggestion.updated` event.',
  action: 'update',
  accessNote: 'A `member` may change `status` alone; `priority` and `review` need the role `owner` or `admin`.',
  body: bulkSuggestionsBody,
  responses: [{ status: 200, description: 'The suggestions changed', json: bulkSuggestionsSchema }],
  errors: [404, 409],
  handler: async ({ principal, body, db }) =>
    ok({ data: (await changeSuggestions(db, principal, body)).map(toSuggestionDashboardResponse) }),
});
