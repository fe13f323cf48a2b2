import { queuedSql, recordsSql, type Records } from '../outbox/outbox.repository.js';
import type { Queryable } from '../db/database.js';
import { SUGGESTION_COLUMNS, SUGGESTION_OBJECT_SQL } from '../suggestions/suggestion.repository.js';
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

/** What the public page may show: public, reviewed if review was needed, and not rejected. */
export const PUBLICLY_VISIBLE = /* sql */ `visibility = 'public'
      AND review_state IN ('not_required', 'approved')
      AND status <> 'rejected'`;

/** A vote added or taken back, the suggestion's count after it, and how many webhook deliveries it queued. */
export interface CountedVote {
  vote: VoteRow;
  upvoteCount: number;
  queued: number;
}

/**
 * The rest of a vote's statement once `voted` (the vote inserted or deleted, if any) is known: the
 * count moves by `delta` exactly when it has a row, and the activity and the event record it from the
 * changed suggestion. The vote and its count change in one statement, so `upvote_count` always equals
 * the number of votes, whatever the concurrency: concurrent votes queue on the suggestion's row at the
 * UPDATE, which adds to the latest count. That row lock is taken as late as it can be, by the UPDATE,
 * and held only for the records and the commit: the vote's own insert or delete is done before it.
 */
function countAndRecordSql(params: unknown[], delta: 1 | -1, records: Records): string {
  const deltaParam = `$${params.push(delta)}::int`;
  const recorded = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    activityData: /* sql */ `jsonb_build_object(
        'vote_id', (SELECT id FROM voted),
        'voter_type', (SELECT voter_type FROM voted),
        'upvote_count', upvote_count)`,
    eventData: /* sql */ `jsonb_build_object(
        'object', ${SUGGESTION_OBJECT_SQL},
        'changes', jsonb_build_object(
          'upvote_count', jsonb_build_object('from', upvote_count - ${deltaParam}, 'to', upvote_count)))`,
  });
  return /* sql */ `changed AS (
      UPDATE suggestions
      SET upvote_count = upvote_count + ${deltaParam}
      WHERE business_id = $1
        AND id = (SELECT suggestion_id FROM voted)
      RETURNING ${SUGGESTION_COLUMNS}
    ),
    ${recorded}
    SELECT ${qualified('voted')}, changed.upvote_count, ${queuedSql(records)} AS queued
    FROM voted
    CROSS JOIN changed`;
}

/** The suggestion voted on: of the business, and publicly visible when `$3` (the page's votes). */
const TARGET_SQL = /* sql */ `s.business_id = $1
        AND s.id = $2
        AND (NOT $3::boolean OR (${PUBLICLY_VISIBLE}))`;

/**
 * Adds a vote, moves the count and records both, in one statement. Null when nothing was added: no
 * such suggestion (or not a visible one, with `publicOnly`), or this voter had already voted.
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
  const { rows } = await db.query<VoteRow & { upvote_count: number; queued: number }>(
    /* sql */ `
    WITH voted AS (
      INSERT INTO votes (id, business_id, suggestion_id, voter_digest, voter_type, voter_email, voter_external_id,
        voter_name)
      SELECT $4, $1, s.id, $5, $6, $7, $8, $9
      FROM suggestions s
      WHERE ${TARGET_SQL}
      ON CONFLICT (suggestion_id, voter_digest) DO NOTHING
      RETURNING ${COLUMNS}
    ),
    ${countAndRecordSql(params, 1, records)}`,
    params,
  );
  return countedVote(rows[0]);
}

/** Deletes one vote, by its id or by its voter, moves the count and records both, in one statement. */
export async function deleteCountedVote(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  which: { id: string } | { voterDigest: Buffer },
  publicOnly: boolean,
  records: Records,
): Promise<CountedVote | null> {
  const [column, value] = 'id' in which ? ['id', which.id] : ['voter_digest', which.voterDigest];
  const params: unknown[] = [businessId, suggestionId, publicOnly, value];
  const { rows } = await db.query<VoteRow & { upvote_count: number; queued: number }>(
    /* sql */ `
    WITH voted AS (
      DELETE FROM votes v
      USING suggestions s
      WHERE v.business_id = $1
        AND v.suggestion_id = $2
        AND v.${column} = $4
        AND ${TARGET_SQL}
      RETURNING ${qualified('v')}
    ),
    ${countAndRecordSql(params, -1, records)}`,
    params,
  );
  return countedVote(rows[0]);
}

function countedVote(row: (VoteRow & { upvote_count: number; queued: number }) | undefined): CountedVote | null {
  if (!row) return null;
  const { upvote_count: upvoteCount, queued, ...vote } = row;
  return { vote, upvoteCount, queued };
}

/**
 * Where a vote that changed nothing stands: the suggestion's count and whether the page shows it, and
 * this voter's vote (by digest) or this vote (by id), if any. Null when the business has no such suggestion.
 */
export async function findVoteStanding(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  which: { id: string } | { voterDigest: Buffer },
): Promise<{ upvoteCount: number; visible: boolean; vote: VoteRow | null } | null> {
  const [column, value] = 'id' in which ? ['id', which.id] : ['voter_digest', which.voterDigest];
  const { rows } = await db.query<{ upvote_count: number; visible: boolean } & Nullable<VoteRow>>(
    /* sql */ `
    SELECT s.upvote_count, (${PUBLICLY_VISIBLE}) AS visible, ${qualified('v')}
    FROM suggestions s
    LEFT JOIN votes v
      ON v.business_id = s.business_id
      AND v.suggestion_id = s.id
      AND v.${column} = $3
    WHERE s.business_id = $1
      AND s.id = $2`,
    [businessId, suggestionId, value],
  );
  const row = rows[0];
  if (!row) return null;
  const { upvote_count: upvoteCount, visible, ...vote } = row;
  return { upvoteCount, visible, vote: vote.id === null ? null : (vote as VoteRow) };
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
