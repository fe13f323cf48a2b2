import { sendCachedList } from '../cache/list-cache.js';
import { defineRoute, type Feature } from '../http/route.js';
import { offsetEnvelope } from '../http/params.js';
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
      handler: async ({ res, principal, query, services }) => {
        await sendCachedList(
          res,
          services.lists,
          principal,
          `business suggestions ${JSON.stringify(query)}`,
          async () => {
            const { limit, offset, sort, order, ...filter } = query;
            const page = { sort, order, limit, offset };
            const result = await listSuggestions(services.db.pool, principal.businessId, filter, page);
            return offsetEnvelope(result.rows.map(toSuggestionDashboardResponse), result.total, limit, offset);
          },
        );
      },
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
      handler: async ({ res, principal, services, id }) => {
        const suggestion = await getSuggestion(services.db.pool, principal.businessId, id);
        res.json(toSuggestionDashboardResponse(suggestion));
      },
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
      handler: async ({ req, res, principal, body, services }) => {
        const suggestion = await createSuggestion(services.db.pool, principal, body);
        res
          .status(201)
          .location(`${req.baseUrl}/suggestions/${suggestion.id}`)
          .json(toSuggestionDashboardResponse(suggestion));
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
      handler: async ({ res, principal, body, services, id }) => {
        const suggestion = await changeSuggestion(services.db.pool, principal, id, body);
        res.json(toSuggestionDashboardResponse(suggestion));
      },
    }),
  ],
};
