import type pg from 'pg';
import { recordActivity, type Actor } from '../activity/activity.service.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import type { EntrySource } from '../shared/schemas.js';
import { badRequest, notFound } from '../errors/http-error.js';
import { locationExists } from '../locations/location.repository.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { analyzeSentiment } from './sentiment.js';
import { nextReviewState } from './suggestion-review.js';
import { toSuggestionDashboardResponse } from './suggestion.presenter.js';
import type { CreateSuggestionBody, UpdateSuggestionDashboardBody } from './suggestion.schemas.js';
import {
  findSuggestion,
  findSuggestionPage,
  insertSuggestion,
  updateSuggestion,
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
  principal: Principal | Actor,
  input: CreateSuggestionBody,
  /** Where it came from when not from the caller's credential: a QR code's page. */
  source?: EntrySource,
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
      source: source ?? ('kind' in principal && principal.kind === 'api_key' ? 'api' : 'dashboard'),
    });
    await recordActivity(tx, principal, {
      type: 'suggestion.created',
      entityType: 'suggestion',
      entityId: row.id,
      data: { status: row.status, priority: row.priority, visibility: row.visibility },
      publish: { object: toSuggestionDashboardResponse(row) },
    });
    return row;
  });
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
    await recordActivity(tx, principal, {
      type: 'suggestion.updated',
      entityType: 'suggestion',
      entityId: id,
      data: { from: snapshot(before), to: snapshot(row) },
      publish: { object: toSuggestionDashboardResponse(row), changes: fieldChanges(snapshot(before), snapshot(row)) },
    });
    return row;
  });
}
