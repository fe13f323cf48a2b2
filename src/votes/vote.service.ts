import type pg from 'pg';
import { afterRecorded, recordsOf, type Actor } from '../outbox/outbox.service.js';
import type { Principal } from '../auth/principal.js';
import type { PageRequest } from '../db/paging.js';
import { withTransaction } from '../db/database.js';
import { conflict, HttpError, notFound } from '../errors/http-error.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import {
  deleteCountedVote,
  findVotedSuggestionIds,
  findVotePage,
  findVoteStanding,
  insertCountedVote,
  lockVotedSuggestion,
  readUpvoteCount,
  type VoteRow,
} from './vote.repository.js';

/**
 * Who votes: a browser on the public page (its anonymous cookie token), or a user of an integrator,
 * named by email (compared without case) or by the integrator's own id.
 */
export type Voter =
  | { type: 'anonymous'; token: string }
  | { type: 'email'; email: string; name?: string }
  | { type: 'external_id'; externalId: string; name?: string };

/** Only this digest identifies a voter in the database: the page's token is never stored. */
export function voterDigest(voter: Voter): Buffer {
  switch (voter.type) {
    case 'anonymous':
      return sha256(`anonymous:${voter.token}`);
    case 'email':
      return sha256(`email:${voter.email.toLowerCase()}`);
    case 'external_id':
      return sha256(`external_id:${voter.externalId}`);
  }
}

export interface VoteOutcome {
  vote: VoteRow;
  /** False when the voter had already voted: `vote` is the existing one. */
  created: boolean;
  upvoteCount: number;
}

/** The page only lets customers vote for what it shows; integrators may vote for any suggestion. */
interface VoteRules {
  publicOnly?: boolean;
}

/** A merged suggestion takes no votes: they go to the suggestion it is merged into. */
export const mergedRefusal = (mergedInto: string) =>
  new HttpError(409, `The suggestion is merged into ${mergedInto}: vote on that one`, 'SUGGESTION_MERGED');

/** How many times a vote is tried again when, between its two statements, another request undid what it saw. */
const RETRIES = 3;

const votedRecords = (by: Principal | Actor, type: 'suggestion.voted' | 'suggestion.unvoted') =>
  recordsOf(by, { type, entityType: 'suggestion' }, 'suggestion.voted');

/**
 * Adds a vote once per voter. One statement moves the suggestion's count (its UPDATE holds the row lock
 * and checks the voter has no vote there), inserts the vote for the row it changed and records the
 * activity and the event: `upvote_count` always equals the
 * number of voters counted for it, whatever the concurrency, and the suggestion's row lock is held for
 * no round trip of the client. A voter who had already voted (on it, or on a suggestion merged into
 * it) gets that vote back, and nothing is written. A merged suggestion takes no vote (409).
 */
export async function castVote(
  pool: pg.Pool,
  by: Principal | Actor,
  suggestionId: string,
  voter: Voter,
  rules: VoteRules = {},
): Promise<VoteOutcome> {
  const { businessId } = by;
  const digest = voterDigest(voter);
  const publicOnly = rules.publicOnly === true;
  for (let attempt = 0; ; attempt++) {
    const added = await insertCountedVote(
      pool,
      businessId,
      {
        id: newId(),
        suggestionId,
        voterDigest: digest,
        voterType: voter.type,
        voterEmail: voter.type === 'email' ? voter.email.toLowerCase() : null,
        voterExternalId: voter.type === 'external_id' ? voter.externalId : null,
        voterName: voter.type === 'anonymous' ? null : (voter.name ?? null),
      },
      publicOnly,
      votedRecords(by, 'suggestion.voted'),
    );
    if (added) {
      afterRecorded(added.queued);
      return { vote: added.vote, created: true, upvoteCount: added.upvoteCount };
    }
    const standing = await findVoteStanding(pool, businessId, suggestionId, digest);
    if (!standing || (publicOnly && !standing.visible)) throw notFound('Suggestion');
    if (standing.mergedInto) throw mergedRefusal(standing.mergedInto);
    if (standing.vote) return { vote: standing.vote, created: false, upvoteCount: standing.upvoteCount };
    // Neither added nor there: it was taken back, or the suggestion shown, in between. Once more.
    if (attempt === RETRIES) throw conflict('The suggestion changed while voting; try again');
  }
}

/**
 * Takes a vote back, by its id (the API) or by its voter (the page): the voter is no longer counted
 * for the suggestion, and the count follows in the same statement. The suggestion is locked first, in
 * the same transaction, so the statement sees every merge and vote committed before it.
 */
export async function withdrawVote(
  pool: pg.Pool,
  by: Principal | Actor,
  suggestionId: string,
  which: { id: string } | { voter: Voter },
  rules: VoteRules = {},
): Promise<{ upvoteCount: number; removed: boolean }> {
  const { businessId } = by;
  const publicOnly = rules.publicOnly === true;
  const target = 'id' in which ? { id: which.id } : { voterDigest: voterDigest(which.voter) };
  const removed = await withTransaction(pool, async (tx) => {
    const locked = await lockVotedSuggestion(tx, businessId, suggestionId);
    if (!locked || (publicOnly && !locked.visible)) throw notFound('Suggestion');
    if (locked.mergedInto) throw mergedRefusal(locked.mergedInto);
    const deleted = await deleteCountedVote(
      tx,
      businessId,
      suggestionId,
      target,
      votedRecords(by, 'suggestion.unvoted'),
    );
    if (!deleted && 'id' in which) throw notFound('Vote');
    return deleted ?? { upvoteCount: locked.upvoteCount, queued: null };
  });
  if (removed.queued === null) return { upvoteCount: removed.upvoteCount, removed: false };
  afterRecorded(removed.queued);
  return { upvoteCount: removed.upvoteCount, removed: true };
}

export async function listVotes(
  pool: pg.Pool,
  businessId: string,
  suggestionId: string,
  page: PageRequest<'created_at'>,
): Promise<{ rows: VoteRow[]; total: number }> {
  if ((await readUpvoteCount(pool, businessId, suggestionId)) === null) throw notFound('Suggestion');
  return findVotePage(pool, businessId, suggestionId, page);
}

/** The suggestions among these that the page's visitor has voted for. */
export function votedBy(
  pool: pg.Pool,
  businessId: string,
  voter: Voter,
  suggestionIds: string[],
): Promise<Set<string>> {
  return findVotedSuggestionIds(pool, businessId, voterDigest(voter), suggestionIds);
}
