import type pg from 'pg';
import { afterRecorded, recordsOf, type Actor } from '../outbox/outbox.service.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import type { EntrySource } from '../shared/schemas.js';
import { badRequest, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { analyzeSentiment } from './sentiment.js';
import { nextReviewState } from './suggestion-review.js';
import type { CreateSuggestionBody, UpdateSuggestionDashboardBody } from './suggestion.schemas.js';
import {
  findSuggestion,
  findSuggestionPage,
  insertRecordedSuggestion,
  updateRecordedSuggestion,
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
 * a public suggestion waits for review when the business requires approval. The suggestion, its
 * activity row and its event are one statement: atomic without a transaction, one round trip.
 */
export async function createSuggestion(
  pool: pg.Pool,
  principal: Principal | Actor,
  input: CreateSuggestionBody,
  /** Where it came from when not from the caller's credential: a QR code's page. */
  source?: EntrySource,
): Promise<SuggestionRow> {
  const { sentiment, score } = analyzeSentiment(input.content);
  const created = await insertRecordedSuggestion(
    pool,
    principal.businessId,
    {
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
      // a public suggestion waits for review when its business requires approval
      reviewState: input.visibility === 'public' ? 'if_approval_required' : 'not_required',
      locationId: input.location_id ?? null,
      source: source ?? ('kind' in principal && principal.kind === 'api_key' ? 'api' : 'dashboard'),
    },
    recordsOf(principal, { type: 'suggestion.created', entityType: 'suggestion' }, 'suggestion.created'),
    { status: input.status, priority: input.priority, visibility: input.visibility },
  );
  if (!created) throw badRequest('Validation failed: location_id: not a location of this business');
  afterRecorded(created.queued);
  return created.row;
}

/**
 * Reads the suggestion under a lock (the review rules and what changed depend on it), then changes it
 * and records the change in one statement.
 */
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
    const from = snapshot(before);
    // What the update writes: each given field, the rest as they are (the row is locked).
    const to = {
      status: changes.status ?? from.status,
      priority: changes.priority ?? from.priority,
      visibility: changes.visibility ?? from.visibility,
      review_state: reviewState ?? from.review_state,
    };
    const updated = (await updateRecordedSuggestion(
      tx,
      businessId,
      id,
      { ...changes, reviewState },
      recordsOf(principal, { type: 'suggestion.updated', entityType: 'suggestion' }, 'suggestion.updated'),
      { activity: { from, to }, changes: fieldChanges(from, to) },
    ))!;
    afterRecorded(updated.queued);
    return updated.row;
  });
}

const snapshot = (s: SuggestionRow) => ({
  status: s.status,
  priority: s.priority,
  visibility: s.visibility,
  review_state: s.review_state,
});
