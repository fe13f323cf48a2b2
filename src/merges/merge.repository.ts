import type { Queryable } from '../db/database.js';
import { SUGGESTION_COLUMNS, type SuggestionRow } from '../suggestions/suggestion.repository.js';

/**
 * Merging duplicate suggestions (migrations/0027_merging.sql, docs/decisions.md "Merging duplicates").
 * Every function runs in the merge's transaction, after lockSuggestions: each statement then sees every
 * vote, follow and comment committed before the locks, and none can change under them.
 */

export interface LockedSuggestion {
  id: string;
  merged_into: string | null;
  /** How many suggestions are merged into it. */
  merged_count: number;
}

/**
 * Locks the business's suggestions among `ids`, in id order, so that two merges, unmerges or votes
 * never take the same rows in opposite orders. A missing id (unknown, another business's) is absent.
 */
export async function lockSuggestions(db: Queryable, businessId: string, ids: string[]): Promise<LockedSuggestion[]> {
  const { rows: locked } = await db.query<{ id: string; merged_into: string | null }>(
    /* sql */ `
    SELECT id, merged_into
    FROM suggestions
    WHERE business_id = $1
      AND id = ANY($2::uuid[])
    ORDER BY id
    FOR NO KEY UPDATE`,
    [businessId, ids],
  );
  // Counted after the locks: a merge into one of them holds its lock, so it is over or not begun.
  const { rows: counts } = await db.query<{ merged_into: string; merged_count: number }>(
    /* sql */ `
    SELECT merged_into, count(*)::int AS merged_count
    FROM suggestions
    WHERE business_id = $1
      AND merged_into = ANY($2::uuid[])
    GROUP BY merged_into`,
    [businessId, ids],
  );
  const merged = new Map(counts.map((row) => [row.merged_into, row.merged_count]));
  return locked.map((row) => ({ ...row, merged_count: merged.get(row.id) ?? 0 }));
}

/** The suggestion a merged one points at, read without a lock: the unmerge locks both, then checks again. */
export async function findMergedInto(db: Queryable, businessId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ merged_into: string | null }>(
    /* sql */ `
    SELECT merged_into
    FROM suggestions
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
  return rows[0]?.merged_into ?? null;
}

/**
 * The sources' votes are counted for the target from now on. A voter already counted for the target,
 * or a voter of several sources, stays counted once: their other votes become duplicates (kept, so an
 * unmerge gives each source back its own votes).
 */
export async function moveVotes(db: Queryable, businessId: string, targetId: string, sourceIds: string[]) {
  await db.query(
    /* sql */ `
    WITH moving AS (
      SELECT id,
        row_number() OVER (PARTITION BY voter_digest ORDER BY created_at, id) AS n,
        EXISTS (
          SELECT 1
          FROM votes t
          WHERE t.business_id = $1
            AND t.counted_for = $2
            AND t.voter_digest = v.voter_digest
            AND NOT t.duplicate) AS counted_already
      FROM votes v
      WHERE v.business_id = $1
        AND v.counted_for = ANY($3::uuid[])
    )
    UPDATE votes v
    SET counted_for = $2,
        duplicate = (m.n > 1 OR m.counted_already)
    FROM moving m
    WHERE v.business_id = $1
      AND v.counted_for = ANY($3::uuid[])
      AND v.id = m.id`,
    [businessId, targetId, sourceIds],
  );
}

/**
 * The source's own votes are counted for it again; a voter of the target who was counted through
 * one of them is counted through another of their votes, which stops being a duplicate.
 */
export async function takeVotesBack(db: Queryable, businessId: string, targetId: string, sourceId: string) {
  await db.query(
    /* sql */ `
    UPDATE votes
    SET counted_for = suggestion_id,
        duplicate = false
    WHERE business_id = $1
      AND counted_for = $2
      AND suggestion_id = $3`,
    [businessId, targetId, sourceId],
  );
  await db.query(
    /* sql */ `
    UPDATE votes
    SET duplicate = false
    WHERE business_id = $1
      AND counted_for = $2
      AND id IN (
        SELECT DISTINCT ON (voter_digest) id
        FROM votes d
        WHERE d.business_id = $1
          AND d.counted_for = $2
          AND NOT EXISTS (
            SELECT 1
            FROM votes c
            WHERE c.business_id = $1
              AND c.counted_for = $2
              AND c.voter_digest = d.voter_digest
              AND NOT c.duplicate)
        ORDER BY voter_digest, created_at, id)`,
    [businessId, targetId],
  );
}

/** The sources' comments are shown under the target, each remembering the suggestion it was written on. */
export async function moveComments(db: Queryable, businessId: string, targetId: string, sourceIds: string[]) {
  await db.query(
    /* sql */ `
    UPDATE comments
    SET merged_from = entity_id,
        entity_id = $2
    WHERE business_id = $1
      AND entity_type = 'suggestion'
      AND entity_id = ANY($3::uuid[])`,
    [businessId, targetId, sourceIds],
  );
}

/** The comments written on the source go back to it. */
export async function takeCommentsBack(db: Queryable, businessId: string, targetId: string, sourceId: string) {
  await db.query(
    /* sql */ `
    UPDATE comments
    SET entity_id = merged_from,
        merged_from = NULL
    WHERE business_id = $1
      AND entity_type = 'suggestion'
      AND entity_id = $2
      AND merged_from = $3`,
    [businessId, targetId, sourceId],
  );
}

/**
 * The sources' followers follow the target: an address that already follows it (or several of the
 * sources) keeps one follow, the target's, else a confirmed one, else the oldest.
 */
export async function moveFollows(db: Queryable, businessId: string, targetId: string, sourceIds: string[]) {
  await db.query(
    /* sql */ `
    DELETE FROM suggestion_follows
    WHERE business_id = $1
      AND id IN (
        SELECT id
        FROM (
          SELECT id, suggestion_id,
            row_number() OVER (
              PARTITION BY lower(email)
              ORDER BY suggestion_id = $2 DESC, confirmed_at IS NOT NULL DESC, created_at, id) AS n
          FROM suggestion_follows
          WHERE business_id = $1
            AND (suggestion_id = $2 OR suggestion_id = ANY($3::uuid[]))
        ) ranked
        WHERE n > 1)`,
    [businessId, targetId, sourceIds],
  );
  await db.query(
    /* sql */ `
    UPDATE suggestion_follows
    SET suggestion_id = $2
    WHERE business_id = $1
      AND suggestion_id = ANY($3::uuid[])`,
    [businessId, targetId, sourceIds],
  );
}

/**
 * Marks the sources merged into the target (or, `targetId` null, not merged), stamps them, and sets the
 * counts of every one of them and of the target from their counted votes and confirmed followers.
 * Answers the rows as changed: the target's and the sources'.
 */
export async function setMerged(
  db: Queryable,
  businessId: string,
  sourceIds: string[],
  targetId: string | null,
  countedIds: string[],
): Promise<SuggestionRow[]> {
  const { rows } = await db.query<SuggestionRow>(
    /* sql */ `
    UPDATE suggestions s
    SET merged_into = CASE WHEN s.id = ANY($2::uuid[]) THEN $3::uuid ELSE s.merged_into END,
        merged_at = CASE
          WHEN NOT s.id = ANY($2::uuid[]) THEN s.merged_at
          WHEN $3::uuid IS NULL THEN NULL
          ELSE date_trunc('milliseconds', clock_timestamp())
        END,
        updated_at = CASE WHEN s.id = ANY($2::uuid[]) THEN clock_timestamp() ELSE s.updated_at END,
        upvote_count = (
          SELECT count(*)
          FROM votes v
          WHERE v.business_id = $1
            AND v.counted_for = s.id
            AND NOT v.duplicate),
        follower_count = (
          SELECT count(*)
          FROM suggestion_follows f
          WHERE f.business_id = $1
            AND f.suggestion_id = s.id
            AND f.confirmed_at IS NOT NULL)
    WHERE s.business_id = $1
      AND s.id = ANY($4::uuid[])
    RETURNING ${SUGGESTION_COLUMNS}`,
    [businessId, sourceIds, targetId, countedIds],
  );
  return rows;
}
