import { cachedList } from '../http/cached-list.js';
import { defineRoute, type Feature } from '../http/route.js';
import { pageEnvelope } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { toSuggestionListItem, toSuggestionResponse } from './suggestion.presenter.js';
import { suggestionPageSchema, suggestionSchema } from './suggestion.responses.js';
import {
  createSuggestionBody,
  listSuggestionsQuery,
  suggestionCreatedHeaders,
  suggestionListNotes,
  updateSuggestionBody,
} from './suggestion.schemas.js';
import { changeSuggestion, createSuggestion, getSuggestion, listSuggestions } from './suggestion.service.js';

const common = { tag: 'Suggestions', guard: 'api_key' } as const;

/** /api/v1/suggestions: the business comes from the API key. */
export const suggestionV1Routes: Feature = {
  tags: [
    { name: 'Suggestions', description: 'Customer feedback items and their comments, through an API key (`/api/v1`)' },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/suggestions',
      operationId: 'listSuggestions',
      summary: 'List suggestions',
      description: 'Newest first by default; a page past the end has `data: []` and the true `total`.',
      action: 'read',
      query: listSuggestionsQuery,
      queryNotes: suggestionListNotes,
      responses: [{ status: 200, description: 'One page of suggestions', json: suggestionPageSchema }],
      handler: ({ principal, query, services, db }) =>
        cachedList(services.lists, principal, `suggestions ${JSON.stringify(query)}`, async () => {
          const { page, limit, sort, order, ...filter } = query;
          const offset = (page - 1) * limit;
          const result = await listSuggestions(db, principal.businessId, filter, {
            sort,
            order,
            limit,
            offset,
          });
          return pageEnvelope(result.rows.map(toSuggestionListItem), result.total, page, limit);
        }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/suggestions/:id',
      resource: 'Suggestion',
      operationId: 'getSuggestion',
      summary: 'Read a suggestion',
      action: 'read',
      responses: [{ status: 200, description: 'The suggestion', json: suggestionSchema }],
      handler: async ({ principal, id, db }) =>
        ok(toSuggestionResponse(await getSuggestion(db, principal.businessId, id))),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/api/v1/suggestions',
      operationId: 'createSuggestion',
      summary: 'Create a suggestion',
      description: 'Sentiment is computed from the content. `customer_email` is for attribution only: never emailed.',
      action: 'write',
      body: createSuggestionBody,
      responses: [
        {
          status: 201,
          description: 'The new suggestion',
          json: suggestionSchema,
          headers: suggestionCreatedHeaders('/api/v1/suggestions'),
        },
      ],
      handler: async ({ req, principal, body, db }) => {
        const suggestion = await createSuggestion(db, principal, body);
        return created(toSuggestionResponse(suggestion), `${req.baseUrl}/suggestions/${suggestion.id}`);
      },
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/api/v1/suggestions/:id',
      resource: 'Suggestion',
      operationId: 'updateSuggestion',
      summary: 'Change the status and/or priority of a suggestion',
      description: 'Give at least one of `status`, `priority`; any status may follow any other.',
      action: 'write',
      body: updateSuggestionBody,
      responses: [{ status: 200, description: 'The updated suggestion', json: suggestionSchema }],
      handler: async ({ principal, body, id, db }) =>
        ok(toSuggestionResponse(await changeSuggestion(db, principal, id, body))),
    }),
  ],
};
