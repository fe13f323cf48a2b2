import { conflict } from '../errors/http-error.js';
import type { ReviewState, SuggestionRow } from './suggestion.repository.js';
import type { UpdateSuggestionDashboardBody } from './suggestion.schemas.js';

/**
 * The review state after a change: publishing on a business that requires approval waits for review;
 * hiding needs none; a review decision is only possible while one is pending. Undefined: unchanged.
 */
export function nextReviewState(
  before: Pick<SuggestionRow, 'visibility' | 'review_state'>,
  changes: UpdateSuggestionDashboardBody,
  approvalRequired: boolean,
): ReviewState | undefined {
  if (changes.review) {
    if (before.review_state !== 'pending' || changes.visibility === 'internal') {
      throw conflict('Suggestion is not awaiting review');
    }
    return changes.review === 'approve' ? 'approved' : 'rejected';
  }
  if (changes.visibility === 'internal' && before.visibility !== 'internal') return 'not_required';
  if (changes.visibility === 'public' && before.visibility !== 'public') {
    return approvalRequired ? 'pending' : 'not_required';
  }
  return undefined;
}
