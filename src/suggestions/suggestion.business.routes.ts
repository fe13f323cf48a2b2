import { cachedList } from '../http/cached-list.js';
import { defineRoute, type Feature } from '../http/route.js';
import { offsetEnvelope } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { toSuggestionDashboardResponse } from './suggestion.presenter.js';
import { suggestionDashboardSchema, suggestionOffsetPageSchema } from './suggestion.responses.js';
import {
  createSuggestionBody,
  listSuggestionsOffsetQuery,
  suggestionCreatedHeaders,
  suggestionListNotes,
  updateSuggestionDashboardBody,
} from './suggestion.schemas.js';
import { changeSuggestion, createSuggestion, getSuggestion, listSuggestions } from './suggestion.service.js';

const common = { tag: 'Dashboard suggestions', guard: 'business' } as const;

/** /businesses/:business_id/suggestions: the dashboard's view, paged with limit/offset. */
export const suggestionBusinessRoutes: Feature = {
  tags: [
    {
      name: 'Dashboard suggestions',
      description: 'Suggestions of one business, with visibility and review (`/businesses/{business_id}`)',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/suggestions',
      operationId: 'listBusinessSuggestions',
      summary: 'List suggestions (dashboard)',
      action: 'read',
      query: listSuggestionsOffsetQuery,
      queryNotes: suggestionListNotes,
      responses: [{ status: 200, description: 'A slice of the suggestions', json: suggestionOffsetPageSchema }],
      handler: ({ principal, query, services, db }) =>
        cachedList(services.lists, principal, `business suggestions ${JSON.stringify(query)}`, async () => {
          const { limit, offset, sort, order, ...filter } = query;
          const page = { sort, order, limit, offset };
          const result = await listSuggestions(db, principal.businessId, filter, page);
          return offsetEnvelope(result.rows.map(toSuggestionDashboardResponse), result.total, limit, offset);
        }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/suggestions/:id',
      resource: 'Suggestion',
      operationId: 'getBusinessSuggestion',
      summary: 'Read a suggestion (dashboard)',
      action: 'read',
      responses: [{ status: 200, description: 'The suggestion', json: suggestionDashboardSchema }],
      handler: async ({ principal, id, db }) =>
        ok(toSuggestionDashboardResponse(await getSuggestion(db, principal.businessId, id))),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/businesses/:business_id/suggestions',
      operationId: 'createBusinessSuggestion',
      summary: 'Create a suggestion (dashboard)',
      description: 'A `public` suggestion waits for review first when the business requires approval.',
      action: 'write',
      body: createSuggestionBody,
      responses: [
        {
          status: 201,
          description: 'The new suggestion',
          json: suggestionDashboardSchema,
          headers: suggestionCreatedHeaders('/businesses/{business_id}/suggestions'),
        },
      ],
      handler: async ({ req, principal, body, db }) => {
        const suggestion = await createSuggestion(db, principal, body);
        return created(toSuggestionDashboardResponse(suggestion), `${req.baseUrl}/suggestions/${suggestion.id}`);
      },
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/businesses/:business_id/suggestions/:id',
      resource: 'Suggestion',
      operationId: 'updateBusinessSuggestion',
      summary: 'Change, publish or review a suggestion (dashboard)',
      description:
        'Give at least one of `status`, `priority`, `visibility`, `review`. A review decision on a ' +
        'suggestion that is not awaiting review is a 409.',
      action: 'update',
      accessNote: 'A `member` may change `status` alone; any other change needs the role `owner` or `admin`.',
      body: updateSuggestionDashboardBody,
      responses: [{ status: 200, description: 'The updated suggestion', json: suggestionDashboardSchema }],
      errors: [409],
      handler: async ({ principal, body, id, db }) =>
        ok(toSuggestionDashboardResponse(await changeSuggestion(db, principal, id, body))),
    }),
  ],
};
