import type pg from 'pg';
import { findSimilarToText, type SimilarRow } from './merge.similarity.js';
import type { Principal } from '../auth/principal.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { invalidField, HttpError, notFound } from '../errors/http-error.js';
import { recordActivity, publishEvent } from '../outbox/outbox.service.js';
import { toSuggestionDashboardResponse } from '../suggestions/suggestion.presenter.js';
import { findSuggestion, type SuggestionRow } from '../suggestions/suggestion.repository.js';
import {
  findMergedInto,
  lockSuggestions,
  moveComments,
  moveFollows,
  moveVotes,
  setMerged,
  takeCommentsBack,
  takeVotesBack,
} from './merge.repository.js';

/** How many likely duplicates a suggestion offers. */
export const SIMILAR_LIMIT = 5;

/** A 409 of merging, with its code as data for a page to word (`already_merged`, ...). */
function mergeConflict(message: string, code: string, errorCode: string, params: Record<string, string>): HttpError {
  return new HttpError(409, message, code, {}, [{ field: '', code: errorCode, message, params }]);
}

const mergedAlready = (id: string, into: string) =>
  mergeConflict(`Suggestion ${id} is already merged into ${into}`, 'SUGGESTION_MERGED', 'already_merged', {
    id,
    into,
  });

/**
 * Merges the sources into the target, in one transaction: their votes count for the target (a voter
 * of several counts once), their followers follow it, their comments show under it, and they point at
 * it, hidden from lists. Refused: the target among the sources (400); a suggestion of another business
 * or none (404, whichever it is); a merged target or source, or a source others are merged into (409).
 * Answers the target as read after the merge.
 */
export async function mergeSuggestions(
  pool: pg.Pool,
  principal: Principal,
  targetId: string,
  sourceIds: string[],
): Promise<SuggestionRow> {
  if (sourceIds.includes(targetId))
    throw invalidField('source_ids', 'merge_into_itself', 'a suggestion cannot be merged into itself');
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const locked = await lockSuggestions(tx, businessId, [targetId, ...sourceIds]);
    if (locked.length !== sourceIds.length + 1) throw notFound('Suggestion');
    for (const row of locked) {
      if (row.merged_into) throw mergedAlready(row.id, row.merged_into);
      if (row.id !== targetId && row.merged_count > 0)
        throw mergeConflict(
          `Suggestion ${row.id} has suggestions merged into it: merge into it, or unmerge them first`,
          'SUGGESTION_HAS_MERGED',
          'has_merged',
          { id: row.id },
        );
    }
    const before = await countsOf(tx, businessId, [targetId, ...sourceIds]);
    await moveVotes(tx, businessId, targetId, sourceIds);
    await moveFollows(tx, businessId, targetId, sourceIds);
    await moveComments(tx, businessId, targetId, sourceIds);
    const changed = await setMerged(tx, businessId, sourceIds, targetId, [targetId, ...sourceIds]);
    const target = changed.find((row) => row.id === targetId)!;
    for (const source of changed.filter((row) => row.id !== targetId)) {
      await recordMerge(tx, principal, 'suggestion.merged', source, before.get(source.id)!, targetId);
    }
    await publishCounts(tx, businessId, target, before.get(targetId)!);
    return target;
  });
}

/**
 * Gives a merged suggestion back its own votes and comments and takes it out of the merge: it is
 * listed again, and the target counts only the voters left to it. Its followers stay with the target.
 * A suggestion that is not merged is a 409. Answers the suggestion as read after.
 */
export async function unmergeSuggestion(pool: pg.Pool, principal: Principal, id: string): Promise<SuggestionRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const targetId = await findMergedInto(tx, businessId, id);
    const locked = await lockSuggestions(tx, businessId, targetId ? [id, targetId] : [id]);
    const row = locked.find((candidate) => candidate.id === id);
    if (!row) throw notFound('Suggestion');
    // Merged into another between the read and the lock: rare enough to ask for a retry.
    if (row.merged_into !== targetId || !targetId)
      throw mergeConflict(`Suggestion ${id} is not merged`, 'SUGGESTION_NOT_MERGED', 'not_merged', { id });
    const before = await countsOf(tx, businessId, [id, targetId]);
    await takeVotesBack(tx, businessId, targetId, id);
    await takeCommentsBack(tx, businessId, targetId, id);
    const changed = await setMerged(tx, businessId, [id], null, [id, targetId]);
    const source = changed.find((candidate) => candidate.id === id)!;
    await recordMerge(tx, principal, 'suggestion.unmerged', source, before.get(id)!, targetId);
    await publishCounts(
      tx,
      businessId,
      changed.find((candidate) => candidate.id === targetId)!,
      before.get(targetId)!,
    );
    return source;
  });
}

/** The suggestions most like this one, for the team to merge: at most SIMILAR_LIMIT, not merged. */
export async function similarSuggestions(pool: pg.Pool, businessId: string, id: string): Promise<SimilarRow[]> {
  const suggestion = await findSuggestion(pool, businessId, id);
  if (!suggestion) throw notFound('Suggestion');
  return findSimilarToText(pool, businessId, suggestion.content, {
    limit: SIMILAR_LIMIT,
    scope: 'unmerged',
    exceptId: id,
  });
}

type Counts = Pick<SuggestionRow, 'upvote_count' | 'follower_count'>;

async function countsOf(db: Queryable, businessId: string, ids: string[]): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  for (const id of ids) {
    const row = (await findSuggestion(db, businessId, id))!;
    counts.set(id, { upvote_count: row.upvote_count, follower_count: row.follower_count });
  }
  return counts;
}

/** What changed of the counts, as an event's `changes`. */
function countChanges(before: Counts, after: SuggestionRow) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['upvote_count', 'follower_count'] as const) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  return changes;
}

/** The merge or unmerge of one suggestion, in its activity and as an event whose object is the suggestion after. */
async function recordMerge(
  db: Queryable,
  principal: Principal,
  type: 'suggestion.merged' | 'suggestion.unmerged',
  source: SuggestionRow,
  before: Counts,
  targetId: string,
) {
  const mergedInto = type === 'suggestion.merged' ? { from: null, to: targetId } : { from: targetId, to: null };
  await recordActivity(db, principal, {
    type,
    entityType: 'suggestion',
    entityId: source.id,
    data: { target_id: targetId },
    publish: {
      object: toSuggestionDashboardResponse(source),
      changes: { merged_into: mergedInto, ...countChanges(before, source) },
    },
  });
}

/** The target's counts moved: a `suggestion.updated` event says so (no activity: the merge has its own). */
async function publishCounts(db: Queryable, businessId: string, target: SuggestionRow, before: Counts) {
  const changes = countChanges(before, target);
  if (Object.keys(changes).length === 0) return;
  await publishEvent(db, businessId, 'suggestion.updated', { object: toSuggestionDashboardResponse(target), changes });
}
