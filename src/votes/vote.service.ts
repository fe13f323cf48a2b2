import type pg from 'pg';
import { recordActivity, type Actor } from '../activity/activity.service.js';
import type { Principal } from '../auth/principal.js';
import { withTransaction, type Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import { notFound } from '../errors/http-error.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { toSuggestionDashboardResponse } from '../suggestions/suggestion.presenter.js';
import { findSuggestion } from '../suggestions/suggestion.repository.js';
import {
  addToUpvoteCount,
  deleteVote,
  findVoteByVoter,
  findVotedSuggestionIds,
  findVotePage,
  insertVote,
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

async function lockSuggestion(tx: Queryable, businessId: string, suggestionId: string, rules: VoteRules) {
  const suggestion = await lockVotedSuggestion(tx, businessId, suggestionId);
  if (!suggestion || (rules.publicOnly && !suggestion.visible)) throw notFound('Suggestion');
}

/** The vote's event (the feed and webhooks): the suggestion as read after it, and how its count moved. */
async function votedEvent(tx: Queryable, businessId: string, suggestionId: string, upvoteCount: number, delta: 1 | -1) {
  const row = (await findSuggestion(tx, businessId, suggestionId))!;
  return {
    type: 'suggestion.voted' as const,
    object: toSuggestionDashboardResponse(row),
    changes: { upvote_count: { from: upvoteCount - delta, to: upvoteCount } },
  };
}

/**
 * Adds a vote once per voter. The suggestion is locked first, so the vote and its count change in one
 * transaction at a time: `upvote_count` always equals the number of votes, whatever the concurrency.
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
  return withTransaction(pool, async (tx) => {
    await lockSuggestion(tx, businessId, suggestionId, rules);
    const vote = await insertVote(tx, businessId, {
      id: newId(),
      suggestionId,
      voterDigest: digest,
      voterType: voter.type,
      voterEmail: voter.type === 'email' ? voter.email.toLowerCase() : null,
      voterExternalId: voter.type === 'external_id' ? voter.externalId : null,
      voterName: voter.type === 'anonymous' ? null : (voter.name ?? null),
    });
    if (!vote) {
      const existing = (await findVoteByVoter(tx, businessId, suggestionId, digest))!;
      return { vote: existing, created: false, upvoteCount: (await readUpvoteCount(tx, businessId, suggestionId))! };
    }
    const upvoteCount = await addToUpvoteCount(tx, businessId, suggestionId, 1);
    await recordActivity(tx, by, {
      type: 'suggestion.voted',
      entityType: 'suggestion',
      entityId: suggestionId,
      data: { vote_id: vote.id, voter_type: vote.voter_type, upvote_count: upvoteCount },
      publish: await votedEvent(tx, businessId, suggestionId, upvoteCount, 1),
    });
    return { vote, created: true, upvoteCount };
  });
}

/** Takes a vote back, by its id (the API) or by its voter (the page); the count follows in the same transaction. */
export async function withdrawVote(
  pool: pg.Pool,
  by: Principal | Actor,
  suggestionId: string,
  which: { id: string } | { voter: Voter },
  rules: VoteRules = {},
): Promise<{ upvoteCount: number; removed: boolean }> {
  const { businessId } = by;
  return withTransaction(pool, async (tx) => {
    await lockSuggestion(tx, businessId, suggestionId, rules);
    const target = 'id' in which ? { id: which.id } : { voterDigest: voterDigest(which.voter) };
    const vote = await deleteVote(tx, businessId, suggestionId, target);
    if (!vote) {
      if ('id' in which) throw notFound('Vote');
      return { upvoteCount: (await readUpvoteCount(tx, businessId, suggestionId))!, removed: false };
    }
    const upvoteCount = await addToUpvoteCount(tx, businessId, suggestionId, -1);
    await recordActivity(tx, by, {
      type: 'suggestion.unvoted',
      entityType: 'suggestion',
      entityId: suggestionId,
      data: { vote_id: vote.id, voter_type: vote.voter_type, upvote_count: upvoteCount },
      publish: await votedEvent(tx, businessId, suggestionId, upvoteCount, -1),
    });
    return { upvoteCount, removed: true };
  });
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
