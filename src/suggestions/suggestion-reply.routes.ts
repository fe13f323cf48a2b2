import { defineFamilies } from '../http/families.js';
import { noContent, ok } from '../http/reply.js';
import { toReplyResponse } from './suggestion.presenter.js';
import { suggestionReplySchema } from './suggestion.columns.js';
import { replySuggestionBody } from './suggestion.schemas.js';
import { removeReply, replyToSuggestion } from './suggestion-reply.service.js';

// Replying speaks for the business in public: like publishing, it takes an owner, an admin or a
// write key (`write`); a member changes status only (src/auth/authorize.ts).
const common = {
  path: '/suggestions/:id/reply',
  resource: 'Suggestion',
  action: 'write',
  params: { id: 'The suggestion; a malformed, unknown or other business’s id is a 404' },
} as const;
const v1 = { tag: 'Suggestions' };
const business = { tag: 'Dashboard suggestions' };

export const setReply = defineFamilies({
  ...common,
  method: 'put',
  description:
    'One reply per suggestion: a second PUT changes its text and keeps its `created_at`. Shown under the ' +
    'suggestion on the public page when the suggestion is shown there; signed with the member’s name, or ' +
    'the business’s for an API key. Recorded as a `suggestion.updated` event with `changes.reply`.',
  responses: [{ status: 200, description: 'The reply', json: suggestionReplySchema }],
  v1: {
    ...v1,
    operationId: 'replyToSuggestion',
    summary: 'Reply to a suggestion in public',
    body: replySuggestionBody,
  },
  business: {
    ...business,
    operationId: 'replyToBusinessSuggestion',
    summary: 'Reply to a suggestion in public (dashboard)',
    body: replySuggestionBody,
  },
  handler: async ({ principal, body, id, db }) =>
    ok(toReplyResponse(await replyToSuggestion(db, principal, id, body.content))),
});

export const deleteReply = defineFamilies({
  ...common,
  method: 'delete',
  description: 'A suggestion without a reply answers 204 too.',
  responses: [{ status: 204, description: 'The reply is gone' }],
  v1: { ...v1, operationId: 'deleteSuggestionReply', summary: 'Remove the reply to a suggestion' },
  business: {
    ...business,
    operationId: 'deleteBusinessSuggestionReply',
    summary: 'Remove the reply to a suggestion (dashboard)',
  },
  handler: async ({ principal, id, db }) => {
    await removeReply(db, principal, id);
    return noContent();
  },
});
