import { defineFamilies } from '../http/families.js';
import { ok } from '../http/reply.js';
import { changeItemTagsBody } from '../tags/tag.schemas.js';
import { toSuggestionDashboardResponse, toSuggestionResponse } from './suggestion.presenter.js';
import { suggestionDashboardSchema, suggestionSchema } from './suggestion.responses.js';
import { changeSuggestionTags } from './suggestion.service.js';

// Tagging is triage, like a status: members may, and so may write keys (src/auth/authorize.ts).
export const changeTags = defineFamilies({
  method: 'post',
  path: '/suggestions/:id/tags',
  resource: 'Suggestion',
  action: 'tag_items',
  params: { id: 'The suggestion; a malformed, unknown or other business’s id is a 404' },
  description:
    'Adds the tags named in `add` and takes off those in `remove` (by name, ignoring case), leaving its ' +
    'other tags as they are; `tags` on PATCH sets the whole list instead. A name the business has not ' +
    'defined is a 422 naming it. A change is a `suggestion.updated` event with `changes.tags` ' +
    '(`{from, to}`, the whole lists); no change records nothing.',
  errors: [422],
  v1: {
    tag: 'Suggestions',
    operationId: 'changeSuggestionTags',
    summary: 'Add or remove tags on a suggestion',
    body: changeItemTagsBody,
    responses: [{ status: 200, description: 'The suggestion', json: suggestionSchema }],
    present: toSuggestionResponse,
  },
  business: {
    tag: 'Dashboard suggestions',
    operationId: 'changeBusinessSuggestionTags',
    summary: 'Add or remove tags on a suggestion (dashboard)',
    body: changeItemTagsBody,
    responses: [{ status: 200, description: 'The suggestion', json: suggestionDashboardSchema }],
    present: toSuggestionDashboardResponse,
  },
  handler: async ({ principal, body, id, db, present }) =>
    ok(present(await changeSuggestionTags(db, principal, id, body))),
});
