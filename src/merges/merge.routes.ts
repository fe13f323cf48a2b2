import { defineFamilies } from '../http/families.js';
import { ok } from '../http/reply.js';
import type { Feature } from '../http/route.js';
import {
  toSuggestionDashboardResponse,
  toSuggestionListItem,
  toSuggestionResponse,
} from '../suggestions/suggestion.presenter.js';
import { suggestionDashboardSchema, suggestionSchema } from '../suggestions/suggestion.responses.js';
import { similarSuggestionListSchema } from './merge.responses.js';
import { mergeSuggestionsBody } from './merge.schemas.js';
import { mergeSuggestions, similarSuggestions, unmergeSuggestion } from './merge.service.js';

// Merging is triage: like a status change, members may do it, and keys with the write scope.
const params = { id: 'The suggestion; a malformed, unknown or other business’s id is a 404' };
const v1 = { tag: 'Suggestions', present: toSuggestionResponse };
const business = { tag: 'Dashboard suggestions', present: toSuggestionDashboardResponse };

const merge = defineFamilies({
  method: 'post',
  path: '/suggestions/:id/merge',
  resource: 'Suggestion',
  action: 'change_status',
  params,
  description:
    'Merges the `source_ids` into this suggestion: their votes count for it (a voter of several counts ' +
    'once), their followers follow it, their comments show under it (with `merged_from`), and each ' +
    'points at it with `merged_into`, keeping its status, hidden from lists unless `include_merged=true`. ' +
    'Unknown ids or another business’s are a 404; the target among the sources a 400; a merged target ' +
    'or source (`SUGGESTION_MERGED`) or a source with suggestions merged into it (`SUGGESTION_HAS_MERGED`) ' +
    'a 409. Recorded as a `suggestion.merged` event per source and a `suggestion.updated` of the ' +
    'target’s counts.',
  errors: [409],
  v1: {
    ...v1,
    operationId: 'mergeSuggestions',
    summary: 'Merge duplicates into a suggestion',
    body: mergeSuggestionsBody,
    responses: [{ status: 200, description: 'The suggestion after the merge', json: suggestionSchema }],
  },
  business: {
    ...business,
    operationId: 'mergeBusinessSuggestions',
    summary: 'Merge duplicates into a suggestion (dashboard)',
    body: mergeSuggestionsBody,
    responses: [{ status: 200, description: 'The suggestion after the merge', json: suggestionDashboardSchema }],
  },
  handler: async ({ principal, body, id, db, present }) =>
    ok(present(await mergeSuggestions(db, principal, id, body.source_ids))),
});

const unmerge = defineFamilies({
  method: 'post',
  path: '/suggestions/:id/unmerge',
  resource: 'Suggestion',
  action: 'change_status',
  params: { id: 'The merged suggestion; a malformed, unknown or other business’s id is a 404' },
  description:
    'Takes a merged suggestion out of its merge: it gets back its own votes and the comments written on ' +
    'it, is listed again, and the suggestion it was merged into counts only the voters left to it. Its ' +
    'followers stay with that suggestion. One not merged is a 409 `SUGGESTION_NOT_MERGED`. Recorded as a ' +
    '`suggestion.unmerged` event and a `suggestion.updated` of the other suggestion’s counts.',
  errors: [409],
  v1: {
    ...v1,
    operationId: 'unmergeSuggestion',
    summary: 'Unmerge a merged suggestion',
    responses: [{ status: 200, description: 'The suggestion, no longer merged', json: suggestionSchema }],
  },
  business: {
    ...business,
    operationId: 'unmergeBusinessSuggestion',
    summary: 'Unmerge a merged suggestion (dashboard)',
    responses: [{ status: 200, description: 'The suggestion, no longer merged', json: suggestionDashboardSchema }],
  },
  handler: async ({ principal, id, db, present }) => ok(present(await unmergeSuggestion(db, principal, id))),
});

const similar = defineFamilies({
  method: 'get',
  path: '/suggestions/:id/similar',
  resource: 'Suggestion',
  action: 'read',
  params,
  description:
    'Up to 5 suggestions of the business whose content is most like this one’s, the most alike first, none ' +
    'merged: candidates to merge. Alike is the larger of trigram similarity (pg_trgm) and the share of ' +
    'subject words (English stems, without the words requests are phrased with) the two have in common; ' +
    'at least 0.6 (docs/decisions.md, "Similar suggestions: which measure").',
  responses: [{ status: 200, description: 'Likely duplicates', json: similarSuggestionListSchema }],
  v1: { tag: 'Suggestions', operationId: 'listSimilarSuggestions', summary: 'List likely duplicates of a suggestion' },
  business: {
    tag: 'Dashboard suggestions',
    operationId: 'listBusinessSimilarSuggestions',
    summary: 'List likely duplicates of a suggestion (dashboard)',
  },
  handler: async ({ principal, id, db }) => {
    const rows = await similarSuggestions(db, principal.businessId, id);
    return ok({ data: rows.map((row) => ({ ...toSuggestionListItem(row), similarity: row.similarity })) });
  },
});

const routes = [similar, merge, unmerge];

export const mergeV1Routes: Feature = { tags: [], routes: routes.map((route) => route.v1) };
export const mergeBusinessRoutes: Feature = { tags: [], routes: routes.map((route) => route.business) };
