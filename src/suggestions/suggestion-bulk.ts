import type pg from 'pg';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { withTransaction } from '../db/database.js';
import { conflict, HttpError } from '../errors/http-error.js';
import { afterRecorded } from '../outbox/outbox.service.js';
import { priority, suggestionStatus, uuid } from '../shared/schemas.js';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf } from '../shared/responses.js';
import { findSuggestion, type SuggestionRow } from './suggestion.repository.js';
import { suggestionDashboardSchema } from './suggestion.responses.js';
import { changeLocked } from './suggestion.service.js';

/** A page of the inbox at most: the list's largest `limit`. */
export const BULK_MAX = 100;

/** Which suggestions (their `ids`), and the one change made to each of them. */
export const bulkSuggestionsBody = z
  .strictObject({
    ids: z.array(uuid).min(1).max(BULK_MAX),
    status: suggestionStatus.optional(),
    priority: priority.optional(),
    review: z.enum(['approve', 'reject']).optional(),
  })
  .refine((body) => body.status !== undefined || body.priority !== undefined || body.review !== undefined, {
    message: 'give at least one of status, priority, review',
    params: { code: 'nothing_to_change' },
  })
  .meta({ examples: [{ ids: [EXAMPLE.suggestionId], review: 'approve' }] });
export type BulkSuggestionsBody = z.output<typeof bulkSuggestionsBody>;

export const bulkSuggestionsSchema = z.object({ data: z.array(suggestionDashboardSchema) }).meta({
  id: 'DashboardSuggestionBulkChange',
  description: 'Every suggestion changed, in the order given',
  examples: [{ data: [exampleOf(suggestionDashboardSchema)] }],
});

/**
 * Changes every suggestion named, in one transaction, each exactly as its own PATCH does (its
 * activity, its `suggestion.updated` event and that event's webhook deliveries): all or none. An id
 * that is not one of the business's suggestions is a 404 naming it (`ids.<n>`), and nothing changes.
 */
export async function changeSuggestions(
  pool: pg.Pool,
  principal: Principal,
  { ids, ...changes }: BulkSuggestionsBody,
): Promise<SuggestionRow[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const result = await withTransaction(pool, async (tx) => {
    const locked = new Map<string, SuggestionRow>();
    // Locked in one order, so two bulk changes over the same rows wait rather than deadlock.
    for (const id of [...unique].sort()) {
      const row = await findSuggestion(tx, principal.businessId, id, { forUpdate: true });
      if (row) locked.set(id, row);
    }
    const missing = unique.filter((id) => !locked.has(id));
    if (missing.length > 0) {
      const errors = missing.map((id) => ({
        field: `ids.${ids.findIndex((given) => given.toLowerCase() === id)}`,
        code: 'not_found',
        message: 'not a suggestion of this business',
      }));
      throw new HttpError(404, 'Suggestion not found', 'NOT_FOUND', {}, errors);
    }
    // A decision on one no longer awaiting review (decided meanwhile) is a 409 naming it, as a 404 does.
    const decided = changes.review ? unique.filter((id) => locked.get(id)!.review_state !== 'pending') : [];
    if (decided.length > 0) {
      const errors = decided.map((id) => ({
        field: `ids.${ids.findIndex((given) => given.toLowerCase() === id)}`,
        code: 'not_awaiting_review',
        message: 'not awaiting review',
      }));
      throw conflict('Suggestion is not awaiting review', errors);
    }
    let queued = 0;
    const rows: SuggestionRow[] = [];
    for (const id of unique) {
      const updated = await changeLocked(tx, principal, locked.get(id)!, changes, undefined);
      queued += updated.queued;
      rows.push(updated.row);
    }
    return { rows, queued };
  });
  afterRecorded(result.queued);
  return result.rows;
}
