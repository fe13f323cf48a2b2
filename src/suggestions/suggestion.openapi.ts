import type { Feature } from '../openapi/operation.js';
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
  updateSuggestionBody,
  updateSuggestionDashboardBody,
} from './suggestion.schemas.js';

const listNotes = {
  since: 'Only suggestions created strictly after this instant (a date alone: midnight UTC)',
  q: 'Full-text search in the content and customer name: every word, as a prefix (`cof` finds "coffee")',
  sort: '`relevance` ranks by the search and needs `q`; ties are broken by id',
};

const created = (path: string) => ({
  Location: { description: `The new suggestion: \`${path}/{id}\``, required: true },
});

export const suggestionDocs: Feature = {
  tags: [
    { name: 'Suggestions', description: 'Customer feedback items and their comments, through an API key (`/api/v1`)' },
    {
      name: 'Dashboard suggestions',
      description: 'Suggestions of one business, with visibility and review (`/businesses/{business_id}`)',
    },
  ],
  operations: [
    {
      method: 'get',
      path: '/api/v1/suggestions',
      operationId: 'listSuggestions',
      summary: 'List suggestions',
      description: 'Newest first by default; a page past the end has `data: []` and the true `total`.',
      tag: 'Suggestions',
      guard: 'api_key',
      action: 'read',
      query: listSuggestionsQuery,
      queryNotes: listNotes,
      responses: [{ status: 200, description: 'One page of suggestions', json: suggestionPageSchema }],
    },
    {
      method: 'get',
      path: '/api/v1/suggestions/:id',
      operationId: 'getSuggestion',
      summary: 'Read a suggestion',
      tag: 'Suggestions',
      guard: 'api_key',
      action: 'read',
      responses: [{ status: 200, description: 'The suggestion', json: suggestionSchema }],
    },
    {
      method: 'post',
      path: '/api/v1/suggestions',
      operationId: 'createSuggestion',
      summary: 'Create a suggestion',
      description: 'Sentiment is computed from the content. `customer_email` is for attribution only: never emailed.',
      tag: 'Suggestions',
      guard: 'api_key',
      action: 'write',
      body: createSuggestionBody,
      responses: [
        {
          status: 201,
          description: 'The new suggestion',
          json: suggestionSchema,
          headers: created('/api/v1/suggestions'),
        },
      ],
    },
    {
      method: 'patch',
      path: '/api/v1/suggestions/:id',
      operationId: 'updateSuggestion',
      summary: 'Change the status and/or priority of a suggestion',
      description: 'Give at least one of `status`, `priority`; any status may follow any other.',
      tag: 'Suggestions',
      guard: 'api_key',
      action: 'write',
      body: updateSuggestionBody,
      responses: [{ status: 200, description: 'The updated suggestion', json: suggestionSchema }],
    },
    {
      method: 'get',
      path: '/businesses/:business_id/suggestions',
      operationId: 'listBusinessSuggestions',
      summary: 'List suggestions (dashboard)',
      tag: 'Dashboard suggestions',
      guard: 'business',
      action: 'read',
      query: listSuggestionsOffsetQuery,
      queryNotes: listNotes,
      responses: [{ status: 200, description: 'A slice of the suggestions', json: suggestionOffsetPageSchema }],
    },
    {
      method: 'get',
      path: '/businesses/:business_id/suggestions/:id',
      operationId: 'getBusinessSuggestion',
      summary: 'Read a suggestion (dashboard)',
      tag: 'Dashboard suggestions',
      guard: 'business',
      action: 'read',
      responses: [{ status: 200, description: 'The suggestion', json: suggestionDashboardSchema }],
    },
    {
      method: 'post',
      path: '/businesses/:business_id/suggestions',
      operationId: 'createBusinessSuggestion',
      summary: 'Create a suggestion (dashboard)',
      description: 'A `public` suggestion waits for review first when the business requires approval.',
      tag: 'Dashboard suggestions',
      guard: 'business',
      action: 'write',
      body: createSuggestionBody,
      responses: [
        {
          status: 201,
          description: 'The new suggestion',
          json: suggestionDashboardSchema,
          headers: created('/businesses/{business_id}/suggestions'),
        },
      ],
    },
    {
      method: 'patch',
      path: '/businesses/:business_id/suggestions/:id',
      operationId: 'updateBusinessSuggestion',
      summary: 'Change, publish or review a suggestion (dashboard)',
      description:
        'Give at least one of `status`, `priority`, `visibility`, `review`. A review decision on a ' +
        'suggestion that is not awaiting review is a 409.',
      tag: 'Dashboard suggestions',
      guard: 'business',
      action: 'change_status',
      accessNote: 'A `member` may change `status` alone; any other change needs the role `owner` or `admin`.',
      body: updateSuggestionDashboardBody,
      responses: [{ status: 200, description: 'The updated suggestion', json: suggestionDashboardSchema }],
      errors: [409],
    },
  ],
};
