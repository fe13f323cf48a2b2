import type pg from 'pg';
import { afterRecorded, recordsOf, type Actor } from '../outbox/outbox.service.js';
import { findBusiness } from '../businesses/business.repository.js';
import { withTransaction, type Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import type { EntrySource } from '../shared/schemas.js';
import { invalidField, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { analyzeSentiment } from './sentiment.js';
import { detectLanguage } from './language.js';
import { nextReviewState } from './suggestion-review.js';
import { nextTags, resolveTagNames, tagChange, tagFilterOf, withTags } from '../tags/tag.service.js';
import type { ChangeItemTagsBody } from '../tags/tag.schemas.js';
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
  const tag = filter.tag && (await tagFilterOf(pool, businessId, filter.tag));
  return findSuggestionPage(pool, businessId, { ...filter, tag }, page);
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
  const language = detectLanguage(input.content);
  const scored = analyzeSentiment(input.content, language);
  // With tags, a transaction: they are held from their lookup to the insert (resolveTagNames).
  if (input.tags.length > 0) {
    return withTransaction(pool, async (tx) => {
      const tags = await resolveTagNames(tx, principal.businessId, input.tags);
      return insertSuggestion(tx, principal, input, language, scored, tags, source);
    });
  }
  return insertSuggestion(pool, principal, input, language, scored, [], source);
}

async function insertSuggestion(
  db: Queryable,
  principal: Principal | Actor,
  input: CreateSuggestionBody,
  language: string | null,
  { sentiment, score, lexicon }: ReturnType<typeof analyzeSentiment>,
  tags: string[],
  source: EntrySource | undefined,
): Promise<SuggestionRow> {
  const created = await insertRecordedSuggestion(
    db,
    principal.businessId,
    {
      id: newId(),
      content: input.content,
      status: input.status,
      priority: input.priority,
      sentiment,
      sentimentScore: score,
      language,
      sentimentLexicon: lexicon,
      customerName: input.customer_name ?? null,
      customerEmail: input.customer_email ?? null,
      isAnonymous: input.customer_name === undefined && input.customer_email === undefined,
      visibility: input.visibility,
      // a public suggestion waits for review when its business requires approval
      reviewState: input.visibility === 'public' ? 'if_approval_required' : 'not_required',
      locationId: input.location_id ?? null,
      source: source ?? ('kind' in principal && principal.kind === 'api_key' ? 'api' : 'dashboard'),
      tags,
    },
    recordsOf(principal, { type: 'suggestion.created', entityType: 'suggestion' }, 'suggestion.created'),
  );
  if (!created) throw invalidField('location_id', 'unknown_location', 'not a location of this business');
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
  return withTransaction(pool, async (tx) => {
    // the tags first, then the suggestion: the order a rename or delete of a tag takes them in
    const tags = changes.tags && (await resolveTagNames(tx, principal.businessId, changes.tags));
    const before = await findSuggestion(tx, principal.businessId, id, { forUpdate: true });
    if (!before) throw notFound('Suggestion');
    const updated = await changeLocked(tx, principal, before, changes, tags);
    afterRecorded(updated.queued);
    return updated.row;
  });
}

/**
 * Changes a suggestion already read under its lock, and records the change (activity, event and its
 * webhook deliveries) in one statement: the one change a PATCH and a bulk change both make.
 */
export async function changeLocked(
  tx: pg.PoolClient,
  principal: Principal,
  before: SuggestionRow,
  changes: UpdateSuggestionDashboardBody,
  tags: string[] | undefined,
): Promise<{ row: SuggestionRow; queued: number }> {
  const { businessId } = principal;
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
  const tagged = tags && tagChange(before.tags, tags);
  return (await updateRecordedSuggestion(
    tx,
    businessId,
    before.id,
    { ...changes, reviewState, tags },
    recordsOf(principal, { type: 'suggestion.updated', entityType: 'suggestion' }, 'suggestion.updated'),
    withTags({ activity: { from, to }, changes: fieldChanges(from, to) }, tagged),
  ))!;
}

/**
 * Adds and removes tags by name, leaving the suggestion's others as they are: a `suggestion.updated`
 * with `changes.tags` only, and nothing at all when the set comes out the same.
 */
export async function changeSuggestionTags(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  change: ChangeItemTagsBody,
): Promise<SuggestionRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const add = await resolveTagNames(tx, businessId, change.add ?? []);
    const remove = await resolveTagNames(tx, businessId, change.remove ?? []);
    const before = await findSuggestion(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Suggestion');
    const tags = nextTags(before.tags, add, remove);
    const tagged = tagChange(before.tags, tags);
    if (!tagged) return before;
    const updated = (await updateRecordedSuggestion(
      tx,
      businessId,
      id,
      { tags },
      recordsOf(principal, { type: 'suggestion.updated', entityType: 'suggestion' }, 'suggestion.updated'),
      withTags({ activity: { from: {}, to: {} }, changes: {} }, tagged),
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
