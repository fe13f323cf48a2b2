import type pg from 'pg';
import { insertActivity } from '../activity/activity.repository.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import { actorOf, type Principal } from '../http/auth.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { locationExists } from '../locations/location.repository.js';
import { newId } from '../shared/ids.js';
import { analyzeSentiment } from './sentiment.js';
import type { CreateSuggestionBody, UpdateSuggestionDashboardBody } from './suggestion.schemas.js';
import {
  findSuggestion,
  findSuggestionPage,
  insertSuggestion,
  updateSuggestion,
  type ReviewState,
  type SuggestionFilter,
  type SuggestionRow,
  type SuggestionSort,
} from './suggestion.repository.js';

export async function listSuggestions(
  pool: pg.Pool,
  businessId: string,
  filter: SuggestionFilter,
  page: PageRequest<SuggestionSort>,
): Promise<{ rows: SuggestionRow[]; total: number }> {
  return findSuggestionPage(pool, businessId, filter, page);
}

export async function getSuggestion(pool: pg.Pool, businessId: string, id: string): Promise<SuggestionRow> {
  const row = await findSuggestion(pool, businessId, id);
  if (!row) throw notFound('Suggestion');
  return row;
}

/**
 * Sentiment is computed from the content; the suggestion is anonymous when no customer is named;
 * a public suggestion waits for review when the business requires approval.
 */
export async function createSuggestion(
  pool: pg.Pool,
  principal: Principal,
  input: CreateSuggestionBody,
): Promise<SuggestionRow> {
  const { businessId } = principal;
  const { sentiment, score } = analyzeSentiment(input.content);
  return withTransaction(pool, async (tx) => {
    if (input.location_id && !(await locationExists(tx, businessId, input.location_id))) {
      throw badRequest('Validation failed: location_id: not a location of this business');
    }
    const business = await findBusiness(tx, businessId);
    const awaitsReview = input.visibility === 'public' && business?.approval_required === true;
    const row = await insertSuggestion(tx, businessId, {
      id: newId(),
      content: input.content,
      status: input.status,
      priority: input.priority,
      sentiment,
      sentimentScore: score,
      customerName: input.customer_name ?? null,
      customerEmail: input.customer_email ?? null,
      isAnonymous: input.customer_name === undefined && input.customer_email === undefined,
      visibility: input.visibility,
      reviewState: awaitsReview ? 'pending' : 'not_required',
      locationId: input.location_id ?? null,
      source: principal.kind === 'api_key' ? 'api' : 'dashboard',
    });
    await insertActivity(tx, businessId, {
      type: 'suggestion.created',
      entityType: 'suggestion',
      entityId: row.id,
      ...actorOf(principal),
      data: { status: row.status, priority: row.priority, visibility: row.visibility },
    });
    return row;
  });
}

/**
 * The review state after a change: publishing on a business that requires approval waits for review;
 * hiding needs none; a review decision is only possible while one is pending.
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

export async function changeSuggestion(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  changes: UpdateSuggestionDashboardBody,
): Promise<SuggestionRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const before = await findSuggestion(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Suggestion');
    const publishing = changes.visibility === 'public' && before.visibility !== 'public';
    const approvalRequired = publishing && (await findBusiness(tx, businessId))?.approval_required === true;
    const reviewState = nextReviewState(before, changes, approvalRequired);
    const row = (await updateSuggestion(tx, businessId, id, { ...changes, reviewState }))!;
    const snapshot = (s: SuggestionRow) => ({
      status: s.status,
      priority: s.priority,
      visibility: s.visibility,
      review_state: s.review_state,
    });
    await insertActivity(tx, businessId, {
      type: 'suggestion.updated',
      entityType: 'suggestion',
      entityId: id,
      ...actorOf(principal),
      data: { from: snapshot(before), to: snapshot(row) },
    });
    return row;
  });
}
