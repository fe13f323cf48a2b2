import type pg from 'pg';
import { afterRecorded, recordsOf } from '../outbox/outbox.service.js';
import { withTransaction } from '../db/database.js';
import type { Principal } from '../auth/principal.js';
import { notFound } from '../errors/http-error.js';
import type { SuggestionReply, SuggestionRow } from './suggestion.columns.js';
import { findSuggestion } from './suggestion.repository.js';
import { updateRecordedReply } from './suggestion-reply.repository.js';

/**
 * Sets the business's public reply to a suggestion, or changes its text (keeping when it was first
 * written), signed by the replying user's name, or the business's for an API key. Recorded as a
 * `suggestion.updated` with `changes.reply`; the same text again changes and records nothing.
 */
export async function replyToSuggestion(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  content: string,
): Promise<SuggestionReply> {
  const row = await changeReply(pool, principal, id, content);
  return row.reply!;
}

/** Removes the reply; a suggestion without one stays as it is, and nothing is recorded. */
export async function removeReply(pool: pg.Pool, principal: Principal, id: string): Promise<void> {
  await changeReply(pool, principal, id, null);
}

async function changeReply(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  content: string | null,
): Promise<SuggestionRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const before = await findSuggestion(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Suggestion');
    if ((before.reply?.content ?? null) === content) return before;
    const updated = (await updateRecordedReply(
      tx,
      businessId,
      id,
      { content, authorUserId: principal.kind === 'user' ? principal.userId : null },
      recordsOf(principal, { type: 'suggestion.updated', entityType: 'suggestion' }, 'suggestion.updated'),
      before.reply,
    ))!;
    afterRecorded(updated.queued);
    return updated.row;
  });
}
