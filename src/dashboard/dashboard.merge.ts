import type { UserPrincipal } from '../auth/principal.js';
import { operation } from '../http/operations.js';
import type { Services } from '../http/route.js';
import type { SimilarSuggestion } from '../merges/merge.responses.js';
import { mergeBusinessRoutes } from '../merges/merge.routes.js';
import { t } from '../shared/messages.js';
import type { SuggestionDashboard } from '../suggestions/suggestion.responses.js';
import { suggestionBusinessRoutes } from '../suggestions/suggestion.routes.js';
import { replyBody, type FormAction, type PageCall, type Refused } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import type { SuggestionPageState } from './dashboard.suggestion-forms.js';

export const MERGES = {
  similar: operation(mergeBusinessRoutes, 'listBusinessSimilarSuggestions'),
  merge: operation(mergeBusinessRoutes, 'mergeBusinessSuggestions'),
  unmerge: operation(mergeBusinessRoutes, 'unmergeBusinessSuggestion'),
};
const GET = operation(suggestionBusinessRoutes, 'getBusinessSuggestion');

/** What the suggestion's page shows of merging: where a merged one went, or its likely duplicates. */
export interface MergeView {
  mergedInto: { id: string; content: string; href: string } | null;
  similar: { id: string; content: string; status: string; upvotes: number; percent: number; href: string }[];
  mergeError?: string;
}

export const suggestionHref = (businessId: string, id: string) => `${BASE_PATH}/b/${businessId}/suggestions/${id}`;

/** A suggestion as the operation reads it, for the page of `principal`. */
export async function readSuggestion(services: Services, principal: UserPrincipal, id: string) {
  return replyBody<SuggestionDashboard>(await GET.invoke(services, principal, { params: { id } }));
}

export async function mergeView(
  services: Services,
  principal: UserPrincipal,
  suggestion: Pick<SuggestionDashboard, 'id' | 'merged_into'>,
): Promise<MergeView> {
  const { businessId } = principal;
  if (suggestion.merged_into) {
    const target = await readSuggestion(services, principal, suggestion.merged_into);
    return {
      mergedInto: { id: target.id, content: target.content, href: suggestionHref(businessId, target.id) },
      similar: [],
    };
  }
  const reply = await MERGES.similar.invoke(services, principal, { params: { id: suggestion.id } });
  const similar = replyBody<{ data: SimilarSuggestion[] }>(reply).data;
  return {
    mergedInto: null,
    similar: similar.map((s) => ({
      id: s.id,
      content: s.content,
      status: t(`suggestion.status.${s.status}`),
      upvotes: s.upvote_count,
      percent: Math.round(s.similarity * 100),
      href: suggestionHref(businessId, s.id),
    })),
  };
}

/** Where the page goes after a merge form: the suggestion's page, saying what happened. */
const back =
  (saved: string, anchor = '') =>
  ({ who, req }: PageCall) =>
    `${suggestionHref(who.principal.businessId, String(req.params.id).toLowerCase())}?saved=${saved}${anchor}`;

type Again = (state: (refused: Refused) => SuggestionPageState) => FormAction['again'];

/** A refused merge (merged elsewhere meanwhile, not merged any more): said where the merge forms are. */
const refusedMerge = ({ errors }: Refused): SuggestionPageState => ({
  mergeError: errors[''] ?? errors.source_ids ?? Object.values(errors)[0],
});

/**
 * The forms of merging on a suggestion's page, running POST .../merge and .../unmerge of the business
 * family (`change_status`): "Merge into this one" on a likely duplicate, and "Unmerge" on a merged
 * suggestion. A refusal is shown on the page.
 */
export const mergeForms = (path: string, again: Again): FormAction[] => [
  {
    path: `${path}/merge`,
    runs: MERGES.merge,
    body: (fields) => ({ source_ids: [fields.source_id ?? ''] }),
    labels: { source_ids: 'merge.field.source' },
    done: back('merged', '#duplicates'),
    again: again(refusedMerge),
  },
  {
    path: `${path}/unmerge`,
    runs: MERGES.unmerge,
    done: back('unmerged'),
    again: again(refusedMerge),
  },
];
