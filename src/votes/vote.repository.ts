import { queuedSql, recordsSql, type Records } from '../outbox/outbox.repository.js';
import type { Queryable } from '../db/database.js';
import { nullOnUniqueViolation } from '../db/errors.js';
import { SUGGESTION_COLUMNS, suggestionVoteEventSql } from '../suggestions/suggestion.repository.js';
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

type Nullable<T> = { [K in keyof T]: T[K] | null };

export interface NewVoteRow {
  id: string;
  suggestionId: string;
  voterDigest: Buffer;
  voterType: VoterType;
  voterEmail: string | null;
  voterExternalId: string | null;
  voterName: string | null;
}

const COLUMN_NAMES = [
  'id',
  'suggestion_id',
  'voter_type',
  'voter_email',
  'voter_external_id',
  'voter_name',
  'created_at',
];
const COLUMNS = COLUMN_NAMES.join(', ');
const qualified = (table: string) => COLUMN_NAMES.map((name) => `${table}.${name}`).join(', ');

/** What the public page may show: public, reviewed if review was needed, not rejected, and not merged. */
export const PUBLICLY_VISIBLE = /* sql */ `visibility = 'public'
      AND review_state IN ('not_required', 'approved')
      AND status <> 'rejected'
      AND merged_into IS NULL`;

/** A vote added or taken back, the suggestion's count after it, and how many webhook deliveries it queued. */
export interface CountedVote {
  vote: VoteRow;
  upvoteCount: number;
  queued: number;
}

/**
 * The end of a vote's statement once `voted` (the counted vote inserted or deleted, if any) and
 * `changed` (the suggestion it is counted for, its count moved by `delta` exactly when there is a
 * vote) are known: the activity and the event record it from the changed suggestion. The vote and its
 * count change in one statement, under the suggestion's row lock, so `upvote_count` always equals
 * the number of votes counted for it, whatever the concurrency.
 */
function recordVoteSql(params: unknown[], delta: 1 | -1, records: Records): string {
  const recorded = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    // a vote's activity records nothing its row does not hold; a vote taken back, which vote it was
    activityData:
      delta === 1
        ? 'NULL'
        : /* sql */ `jsonb_build_object(
        'vote_id', (SELECT id FROM voted),
        'voter_type', (SELECT voter_type FROM voted),
        'upvote_count', upvote_count)`,
    ...suggestionVoteEventSql(delta),
  });
  return /* sql */ `${recorded}
    SELECT ${qualified('voted')}, changed.upvote_count, ${queuedSql(records)} AS queued
    FROM voted
    CROSS JOIN changed`;
}

/** The suggestion voted on: of the business, and publicly visible when `$3` (the page's votes). */
const TARGET_SQL = /* sql */ `s.business_id = $1
        AND s.id = $2
        AND (NOT $3::boolean OR (${PUBLICLY_VISIBLE}))`;

/** The unique indexes a vote of a voter who has one already runs into (a vote of theirs at the same time). */
const VOTER_KEYS = ['votes_suggestion_id_voter_digest_key', 'votes_counted_voter_key'] as const;

/**
 * Adds a vote, moves the count and records both, in one statement. The count's UPDATE comes first and
 * holds the suggestion's row lock for the rest of the statement, so a merge
 * (suggestion-merge.service.ts) never runs in between: a merged suggestion takes no vote, and a voter
 * already counted for it, through it or a suggestion merged into it, moves nothing and is not
 * inserted again; the vote is inserted only for the suggestion the UPDATE changed. Null when nothing
 * was added: no such suggestion (or not a visible one, with `publicOnly`), a merged one, or a voter
 * already counted.
 *
 * No `FOR NO KEY UPDATE` ahead of the UPDATE (its lock record was 54 bytes of WAL a vote), and a plain
 * INSERT, not `ON CONFLICT DO NOTHING`, whose speculative insertion writes a confirmation record (48
 * bytes) every time: the voter's two unique keys are checked in the UPDATE's condition. Those checks
 * read the statement's snapshot, so a vote of the same voter committed while this one waited for the
 * row lock is not seen by them, and its unique index refuses this row, which undoes the statement's
 * count too; that is null as well, and the caller reads the vote that won (castVote).
 */
export async function insertCountedVote(
  db: Queryable,
  businessId: string,
  vote: NewVoteRow,
  publicOnly: boolean,
  records: Records,
): Promise<CountedVote | null> {
  const params: unknown[] = [
    businessId,
    vote.suggestionId,
    publicOnly,
    vote.id,
    vote.voterDigest,
    vote.voterType,
    vote.voterEmail,
    vote.voterExternalId,
    vote.voterName,
  ];
  const inserted = db.query<VoteRow & { upvote_count: number; queued: number }>(
    /* sql */ `
    WITH changed AS (
      UPDATE suggestions s
      SET upvote_count = upvote_count + 1
      WHERE ${TARGET_SQL}
        AND s.merged_into IS NULL
        AND NOT EXISTS (
          SELECT 1
          FROM votes v
          WHERE v.suggestion_id = s.id
            AND v.voter_digest = $5)
        AND NOT EXISTS (
          SELECT 1
          FROM votes v
          WHERE v.counted_for = s.id
            AND v.voter_digest = $5
            AND NOT v.duplicate)
      RETURNING ${SUGGESTION_COLUMNS}
    ),
    voted AS (
      INSERT INTO votes (id, business_id, suggestion_id, counted_for, voter_digest, voter_type, voter_email,
        voter_external_id, voter_name)
      SELECT $4, $1, c.id, c.id, $5, $6, $7, $8, $9
      FROM changed c
      RETURNING ${COLUMNS}, counted_for
    ),
    ${recordVoteSql(params, 1, records)}`,
    params,
  );
  const result = await nullOnUniqueViolation(inserted, VOTER_KEYS);
  return result && countedVote(result.rows[0]);
}

/**
 * Locks the suggestion voted on, for a vote taken back in the same transaction: a statement after it
 * sees every merge and vote committed before. Null when the business has no such suggestion.
 */
export async function lockVotedSuggestion(
  db: Queryable,
  businessId: string,
  suggestionId: string,
): Promise<{ upvoteCount: number; visible: boolean; mergedInto: string | null } | null> {
  const { rows } = await db.query<{ upvote_count: number; visible: boolean; merged_into: string | null }>(
    /* sql */ `
    SELECT upvote_count, (${PUBLICLY_VISIBLE}) AS visible, merged_into
    FROM suggestions
    WHERE business_id = $1
      AND id = $2
    FOR NO KEY UPDATE`,
    [businessId, suggestionId],
  );
  const row = rows[0];
  return row ? { upvoteCount: row.upvote_count, visible: row.visible, mergedInto: row.merged_into } : null;
}

/**
 * Takes a voter's vote back from a suggestion, found by the vote's id or by the voter, with the
 * voter's other votes counted for it (cast on suggestions merged into it): the voter is no longer
 * counted, and the count drops by one. Moves the count and records both in one statement; run it after
 * lockVotedSuggestion in the same transaction. Null when the voter is not counted for it.
 */
export async function deleteCountedVote(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  which: { id: string } | { voterDigest: Buffer },
  records: Records,
): Promise<CountedVote | null> {
  const voter = 'id' in which ? 'v.id = $3' : 'v.voter_digest = $3';
  const params: unknown[] = [businessId, suggestionId, 'id' in which ? which.id : which.voterDigest];
  const { rows } = await db.query<VoteRow & { upvote_count: number; queued: number }>(
    /* sql */ `
    WITH voter AS (
      SELECT DISTINCT v.voter_digest
      FROM votes v
      WHERE v.business_id = $1
        AND v.counted_for = $2
        AND ${voter}
    ),
    gone AS (
      DELETE FROM votes v
      WHERE v.business_id = $1
        AND v.counted_for = $2
        AND v.voter_digest = (SELECT voter_digest FROM voter)
      RETURNING ${qualified('v')}, v.counted_for, v.duplicate
    ),
    voted AS (
      SELECT ${COLUMNS}, counted_for
      FROM gone
      WHERE NOT duplicate
    ),
    changed AS (
      UPDATE suggestions
      SET upvote_count = upvote_count - 1
      WHERE business_id = $1
        AND id = (SELECT counted_for FROM voted)
      RETURNING ${SUGGESTION_COLUMNS}
    ),
    ${recordVoteSql(params, -1, records)}`,
    params,
  );
  return countedVote(rows[0]);
}

function countedVote(row: (VoteRow & { upvote_count: number; queued: number }) | undefined): CountedVote | null {
  if (!row) return null;
  const { upvote_count: upvoteCount, queued, ...vote } = row;
  delete (vote as { counted_for?: string }).counted_for;
  return { vote, upvoteCount, queued };
}

/**
 * Where a vote that added nothing stands: the suggestion's count, whether the page shows it and what
 * it is merged into, and this voter's counted vote for it (perhaps cast on a suggestion merged into
 * it), if any. Null when the business has no such suggestion.
 */
export async function findVoteStanding(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  voterDigest: Buffer,
): Promise<{ upvoteCount: number; visible: boolean; mergedInto: string | null; vote: VoteRow | null } | null> {
  const { rows } = await db.query<
    { upvote_count: number; visible: boolean; merged_into: string | null } & Nullable<VoteRow>
  >(
    /* sql */ `
    SELECT s.upvote_count, (${PUBLICLY_VISIBLE}) AS visible, s.merged_into, ${qualified('v')}
    FROM suggestions s
    LEFT JOIN votes v
      ON v.business_id = s.business_id
      AND v.counted_for = s.id
      AND v.voter_digest = $3
      AND NOT v.duplicate
    WHERE s.business_id = $1
      AND s.id = $2`,
    [businessId, suggestionId, voterDigest],
  );
  const row = rows[0];
  if (!row) return null;
  const { upvote_count: upvoteCount, visible, merged_into: mergedInto, ...vote } = row;
  return { upvoteCount, visible, mergedInto, vote: vote.id === null ? null : (vote as VoteRow) };
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
        AND counted_for = $2
        AND NOT duplicate
      ${orderAndPage('created_at', page, params)}`,
      params,
    ),
    db.query<{ total: number }>(
      /* sql */ `
      SELECT count(*)::int AS total
      FROM votes
      WHERE business_id = $1
        AND counted_for = $2
        AND NOT duplicate`,
      [businessId, suggestionId],
    ),
  ]);
  return { rows, total: count.rows[0]!.total };
}

/** Which of these suggestions this voter is counted for: the page marks them. */
export async function findVotedSuggestionIds(
  db: Queryable,
  businessId: string,
  voterDigest: Buffer,
  suggestionIds: string[],
): Promise<Set<string>> {
  if (suggestionIds.length === 0) return new Set();
  const { rows } = await db.query<{ counted_for: string }>(
    /* sql */ `
    SELECT counted_for
    FROM votes
    WHERE business_id = $1
      AND voter_digest = $2
      AND counted_for = ANY($3::uuid[])
      AND NOT duplicate`,
    [businessId, voterDigest, suggestionIds],
  );
  return new Set(rows.map((row) => row.counted_for));
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
