import { cachedList } from '../http/cached-list.js';
import { defineFamilies, readList } from '../http/families.js';
import { envelopeOf, listRequest } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import type { Feature } from '../http/route.js';
import { toSuggestionDashboardResponse, toSuggestionListItem, toSuggestionResponse } from './suggestion.presenter.js';
import {
  suggestionDashboardSchema,
  suggestionOffsetPageSchema,
  suggestionPageSchema,
  suggestionSchema,
} from './suggestion.responses.js';
import {
  createSuggestionBody,
  listSuggestionsOffsetQuery,
  listSuggestionsQuery,
  suggestionCreatedHeaders,
  suggestionListNotes,
  updateSuggestionBody,
  updateSuggestionDashboardBody,
} from './suggestion.schemas.js';
import { deleteReply, setReply } from './suggestion-reply.routes.js';
import { changeTags } from './suggestion-tags.routes.js';
import { bulkChange } from './suggestion-bulk.routes.js';
import { changeSuggestion, createSuggestion, getSuggestion, listSuggestions } from './suggestion.service.js';

// The versioned family shows a suggestion without its visibility and review; the dashboard with them.
const v1 = { tag: 'Suggestions', present: toSuggestionResponse };
const business = { tag: 'Dashboard suggestions', present: toSuggestionDashboardResponse };

const list = defineFamilies({
  method: 'get',
  path: '/suggestions',
  action: 'read',
  queryNotes: suggestionListNotes,
  v1: {
    ...v1,
    operationId: 'listSuggestions',
    summary: 'List suggestions',
    description: 'Newest first by default; a page past the end has `data: []` and the true `total`.',
    query: listSuggestionsQuery,
    responses: [{ status: 200, description: 'One page of suggestions', json: suggestionPageSchema }],
    present: toSuggestionListItem,
  },
  business: {
    ...business,
    operationId: 'listBusinessSuggestions',
    summary: 'List suggestions (dashboard)',
    query: listSuggestionsOffsetQuery,
    responses: [{ status: 200, description: 'A slice of the suggestions', json: suggestionOffsetPageSchema }],
  },
  handler: ({ principal, query, services, db, family, present }) =>
    cachedList(services.lists, principal, `${family} suggestions ${JSON.stringify(query)}`, async () => {
      const { page, filter } = listRequest(query);
      // The cache stays exact whichever database answers (src/http/cached-list.ts).
      const result = await readList(services.reads, principal, { family, q: query.q, db }, (pool) =>
        listSuggestions(pool, principal.businessId, filter, page),
      );
      return envelopeOf(query, result.rows.map(present), result.total);
    }),
});

const read = defineFamilies({
  method: 'get',
  path: '/suggestions/:id',
  resource: 'Suggestion',
  action: 'read',
  v1: {
    ...v1,
    operationId: 'getSuggestion',
    summary: 'Read a suggestion',
    responses: [{ status: 200, description: 'The suggestion', json: suggestionSchema }],
  },
  business: {
    ...business,
    operationId: 'getBusinessSuggestion',
    summary: 'Read a suggestion (dashboard)',
    responses: [{ status: 200, description: 'The suggestion', json: suggestionDashboardSchema }],
  },
  handler: async ({ principal, id, db, present }) => ok(present(await getSuggestion(db, principal.businessId, id))),
});

const create = defineFamilies({
  method: 'post',
  path: '/suggestions',
  action: 'write',
  v1: {
    ...v1,
    operationId: 'createSuggestion',
    summary: 'Create a suggestion',
    description: 'Sentiment is computed from the content. `customer_email` is for attribution only: never emailed.',
    body: createSuggestionBody,
    responses: [
      {
        status: 201,
        description: 'The new suggestion',
        json: suggestionSchema,
        headers: suggestionCreatedHeaders('/api/v1/suggestions'),
      },
    ],
  },
  business: {
    ...business,
    operationId: 'createBusinessSuggestion',
    summary: 'Create a suggestion (dashboard)',
    description: 'A `public` suggestion waits for review first when the business requires approval.',
    body: createSuggestionBody,
    responses: [
      {
        status: 201,
        description: 'The new suggestion',
        json: suggestionDashboardSchema,
        headers: suggestionCreatedHeaders('/businesses/{business_id}/suggestions'),
      },
    ],
  },
  handler: async ({ baseUrl, principal, body, db, present }) => {
    const suggestion = await createSuggestion(db, principal, body);
    return created(present(suggestion), `${baseUrl}/suggestions/${suggestion.id}`);
  },
});

const update = defineFamilies({
  method: 'patch',
  path: '/suggestions/:id',
  resource: 'Suggestion',
  v1: {
    ...v1,
    operationId: 'updateSuggestion',
    summary: 'Change the status and/or priority of a suggestion',
    description: 'Give at least one of `status`, `priority`; any status may follow any other.',
    action: 'write',
    body: updateSuggestionBody,
    responses: [{ status: 200, description: 'The updated suggestion', json: suggestionSchema }],
  },
  business: {
    ...business,
    operationId: 'updateBusinessSuggestion',
    summary: 'Change, publish or review a suggestion (dashboard)',
    description:
      'Give at least one of `status`, `priority`, `visibility`, `review`. A review decision on a ' +
      'suggestion that is not awaiting review is a 409.',
    action: 'update',
    accessNote: 'A `member` may change `status` and `tags` alone; any other change needs the role `owner` or `admin`.',
    body: updateSuggestionDashboardBody,
    responses: [{ status: 200, description: 'The updated suggestion', json: suggestionDashboardSchema }],
    errors: [409],
  },
  handler: async ({ principal, body, id, db, present }) => ok(present(await changeSuggestion(db, principal, id, body))),
});

const routes = [list, read, create, update, setReply, deleteReply, changeTags];

/** /api/v1/suggestions: the business comes from the API key. */
export const suggestionV1Routes: Feature = {
  tags: [
    { name: 'Suggestions', description: 'Customer feedback items and their comments, through an API key (`/api/v1`)' },
  ],
  routes: routes.map((route) => route.v1),
};

/** /businesses/:business_id/suggestions: the dashboard's view, paged with limit/offset. */
export const suggestionBusinessRoutes: Feature = {
  tags: [
    {
      name: 'Dashboard suggestions',
      description: 'Suggestions of one business, with visibility and review (`/businesses/{business_id}`)',
    },
  ],
  routes: [...routes.map((route) => route.business), bulkChange],
};
