import type { Queryable } from '../db/database.js';
import { orderAndPage, type PageRequest } from '../db/paging.js';

export type VoterType = 'anonymous' | 'email' | 'external_id';

export interface VoteRow {
  id: string;
  suggestion_id: string;
  voter_type: VoterType;
  voter_email: string | null;
  voter_external_id: string | null;
  voter_name: string | null;
  created_at: Date;
}

export interface NewVoteRow {
  id: string;
  suggestionId: string;
  voterDigest: Buffer;
  voterType: VoterType;
  voterEmail: string | null;
  voterExternalId: string | null;
  voterName: string | null;
}

const COLUMNS = 'id, suggestion_id, voter_type, voter_email, voter_external_id, voter_name, created_at';

/** What the public page may show: public, reviewed if review was needed, and not rejected. */
export const PUBLICLY_VISIBLE = /* sql */ `visibility = 'public'
      AND review_state IN ('not_required', 'approved')
      AND status <> 'rejected'`;

/**
 * Locks the suggestion for the vote's transaction: the votes of one suggestion change its count one
 * transaction at a time, so the count and the rows can never disagree.
 */
export async function lockVotedSuggestion(
  db: Queryable,
  businessId: string,
  suggestionId: string,
): Promise<{ visible: boolean } | null> {
  const { rows } = await db.query<{ visible: boolean }>(
    /* sql */ `
    SELECT (${PUBLICLY_VISIBLE}) AS visible
    FROM suggestions
    WHERE business_id = $1
      AND id = $2
    FOR NO KEY UPDATE`,
    [businessId, suggestionId],
  );
  return rows[0] ?? null;
}

/** null when this voter already voted for the suggestion. */
export async function insertVote(db: Queryable, businessId: string, vote: NewVoteRow): Promise<VoteRow | null> {
  const { rows } = await db.query<VoteRow>(
    /* sql */ `
    INSERT INTO votes (id, business_id, suggestion_id, voter_digest, voter_type, voter_email, voter_external_id,
      voter_name)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (suggestion_id, voter_digest) DO NOTHING
    RETURNING ${COLUMNS}`,
    [
      vote.id,
      businessId,
      vote.suggestionId,
      vote.voterDigest,
      vote.voterType,
      vote.voterEmail,
      vote.voterExternalId,
      vote.voterName,
    ],
  );
  return rows[0] ?? null;
}

export async function findVoteByVoter(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  voterDigest: Buffer,
): Promise<VoteRow | null> {
  const { rows } = await db.query<VoteRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM votes
    WHERE business_id = $1
      AND suggestion_id = $2
      AND voter_digest = $3`,
    [businessId, suggestionId, voterDigest],
  );
  return rows[0] ?? null;
}

/** Deletes one vote, by its id or by its voter; null when there was none. */
export async function deleteVote(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  which: { id: string } | { voterDigest: Buffer },
): Promise<VoteRow | null> {
  const [column, value] = 'id' in which ? ['id', which.id] : ['voter_digest', which.voterDigest];
  const { rows } = await db.query<VoteRow>(
    /* sql */ `
    DELETE FROM votes
    WHERE business_id = $1
      AND suggestion_id = $2
      AND ${column} = $3
    RETURNING ${COLUMNS}`,
    [businessId, suggestionId, value],
  );
  return rows[0] ?? null;
}

/** Moves the count by one vote, in the transaction that added or removed it; updated_at is left alone. */
export async function addToUpvoteCount(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  delta: 1 | -1,
): Promise<number> {
  const { rows } = await db.query<{ upvote_count: number }>(
    /* sql */ `
    UPDATE suggestions
    SET upvote_count = upvote_count + $3
    WHERE business_id = $1
      AND id = $2
    RETURNING upvote_count`,
    [businessId, suggestionId, delta],
  );
  return rows[0]!.upvote_count;
}

export async function findVotePage(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  page: PageRequest<'created_at'>,
): Promise<{ rows: VoteRow[]; total: number }> {
  const params: unknown[] = [businessId, suggestionId];
  const [{ rows }, count] = await Promise.all([
    db.query<VoteRow>(
      /* sql */ `
      SELECT ${COLUMNS}
      FROM votes
      WHERE business_id = $1
        AND suggestion_id = $2
      ${orderAndPage('created_at', page, params)}`,
      params,
    ),
    db.query<{ total: number }>(
      /* sql */ `
      SELECT count(*)::int AS total
      FROM votes
      WHERE business_id = $1
        AND suggestion_id = $2`,
      [businessId, suggestionId],
    ),
  ]);
  return { rows, total: count.rows[0]!.total };
}

/** Which of these suggestions this voter has voted for: the page marks them. */
export async function findVotedSuggestionIds(
  db: Queryable,
  businessId: string,
  voterDigest: Buffer,
  suggestionIds: string[],
): Promise<Set<string>> {
  if (suggestionIds.length === 0) return new Set();
  const { rows } = await db.query<{ suggestion_id: string }>(
    /* sql */ `
    SELECT suggestion_id
    FROM votes
    WHERE business_id = $1
      AND voter_digest = $2
      AND suggestion_id = ANY($3::uuid[])`,
    [businessId, voterDigest, suggestionIds],
  );
  return new Set(rows.map((row) => row.suggestion_id));
}

/** The suggestion's count, or null when the business has no such suggestion. */
export async function readUpvoteCount(db: Queryable, businessId: string, suggestionId: string): Promise<number | null> {
  const { rows } = await db.query<{ upvote_count: number }>(
    /* sql */ `
    SELECT upvote_count
    FROM suggestions
    WHERE business_id = $1
      AND id = $2`,
    [businessId, suggestionId],
  );
  return rows[0]?.upvote_count ?? null;
}
