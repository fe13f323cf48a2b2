import { describe, expect, it } from 'vitest';
import { nextReviewState } from './suggestion-review.js';

const pendingPublic = { visibility: 'public', review_state: 'pending' } as const;
const internal = { visibility: 'internal', review_state: 'not_required' } as const;
const approvedPublic = { visibility: 'public', review_state: 'approved' } as const;

describe('nextReviewState', () => {
  it('When a pending suggestion is approved or rejected, then the decision is its review state', () => {
    expect(nextReviewState(pendingPublic, { review: 'approve' }, true)).toBe('approved');
    expect(nextReviewState(pendingPublic, { review: 'reject' }, true)).toBe('rejected');
  });

  it('When a suggestion is not awaiting review, then a decision is a 409', () => {
    for (const before of [internal, approvedPublic]) {
      expect(() => nextReviewState(before, { review: 'approve' }, true)).toThrow(
        expect.objectContaining({ statusCode: 409, message: 'Suggestion is not awaiting review' }),
      );
    }
  });

  it('When a decision comes with hiding the suggestion, then it is a 409', () => {
    expect(() => nextReviewState(pendingPublic, { review: 'approve', visibility: 'internal' }, true)).toThrow(
      expect.objectContaining({ statusCode: 409 }),
    );
  });

  it('When a suggestion is published, then it waits for review only where approval is required', () => {
    expect(nextReviewState(internal, { visibility: 'public' }, true)).toBe('pending');
    expect(nextReviewState(internal, { visibility: 'public' }, false)).toBe('not_required');
  });

  it('When a public suggestion is hidden, then it needs no review', () => {
    expect(nextReviewState(pendingPublic, { visibility: 'internal' }, true)).toBe('not_required');
  });

  it('When the visibility does not change, then the review state is left as it is', () => {
    expect(nextReviewState(approvedPublic, { visibility: 'public' }, true)).toBeUndefined();
    expect(nextReviewState(internal, { visibility: 'internal' }, true)).toBeUndefined();
    expect(nextReviewState(pendingPublic, { status: 'reviewing' }, true)).toBeUndefined();
  });
});
