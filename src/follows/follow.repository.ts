import type { Queryable } from '../db/database.js';
import { PUBLICLY_VISIBLE } from '../votes/vote.repository.js';

/**
 * Followers of suggestions (migrations/0023_follows.sql). A follow is reached by its id from a link
 * whose HMAC its own key made (follow.tokens.ts): those reads are by id alone, as a message belongs to
 * its recipient; every other query filters by the business.
 */
export interface FollowRow {
  id: string;
  business_id: string;
  suggestion_id: string;
  qr_code_id: string | null;
  email: string;
  link_key: Buffer;
  /** The language the follower read the page in when following (migrations/0055_languages.sql). */
  locale: string;
  confirmed_at: Date | null;
  created_at: Date;
}

/** How long an address has to confirm; after that its follow is forgotten. */
export const CONFIRM_WITHIN_DAYS = 7;
const UNCONFIRMED_EXPIRED = `confirmed_at IS NULL AND created_at < now() - make_interval(days => ${CONFIRM_WITHIN_DAYS})`;

const COLUMNS =
  'id, business_id, suggestion_id, qr_code_id, email, link_key, language AS locale, confirmed_at, created_at';

/**
 * A new unconfirmed follow, or null when the address already follows the suggestion (confirmed, or
 * waiting for its confirmation: nothing is sent again). An unconfirmed follow past its 7 days is
 * forgotten first, so the address may ask again.
 */
export async function insertFollow(
  db: Queryable,
  businessId: string,
  follow: {
    id: string;
    suggestionId: string;
    qrCodeId: string | null;
    email: string;
    linkKey: Buffer;
    locale?: string;
  },
): Promise<FollowRow | null> {
  await db.query(
    /* sql */ `
    DELETE FROM suggestion_follows
    WHERE business_id = $1
      AND suggestion_id = $2
      AND lower(email) = lower($3)
      AND ${UNCONFIRMED_EXPIRED}`,
    [businessId, follow.suggestionId, follow.email],
  );
  const { rows } = await db.query<FollowRow>(
    /* sql */ `
    INSERT INTO suggestion_follows (id, business_id, suggestion_id, qr_code_id, email, link_key, language)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (business_id, suggestion_id, lower(email)) DO NOTHING
    RETURNING ${COLUMNS}`,
    [follow.id, businessId, follow.suggestionId, follow.qrCodeId, follow.email, follow.linkKey, follow.locale ?? 'en'],
  );
  return rows[0] ?? null;
}

/** A follow as its link's pages show it: its business's name and, while the page shows it, the suggestion's words. */
export type LinkedFollowRow = FollowRow & {
  business_name: string;
  expired: boolean;
  /** Null while the suggestion awaits review, or once the page no longer shows it. */
  shown_content: string | null;
};

/** A follow by the id its link carries (the link's HMAC is checked by the caller). */
export async function findFollowById(db: Queryable, id: string): Promise<LinkedFollowRow | null> {
  const { rows } = await db.query<LinkedFollowRow>(
    /* sql */ `
    SELECT f.id, f.business_id, f.suggestion_id, f.qr_code_id, f.email, f.link_key, f.language AS locale,
      f.confirmed_at, f.created_at,
      b.name AS business_name,
      (f.confirmed_at IS NULL
        AND f.created_at < now() - make_interval(days => ${CONFIRM_WITHIN_DAYS})) AS expired,
      (SELECT s.content
        FROM suggestions s
        WHERE s.business_id = f.business_id
          AND s.id = f.suggestion_id
          AND ${PUBLICLY_VISIBLE}) AS shown_content
    FROM suggestion_follows f
    JOIN businesses b ON b.id = f.business_id
    WHERE f.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Confirms an unconfirmed follow within its 7 days and counts it on the suggestion, in one statement. */
export async function confirmFollow(db: Queryable, businessId: string, id: string): Promise<boolean> {
  const { rows } = await db.query<{ confirmed: number }>(
    /* sql */ `
    WITH confirmed AS (
      UPDATE suggestion_follows
      SET confirmed_at = now()
      WHERE business_id = $1
        AND id = $2
        AND confirmed_at IS NULL
        AND created_at >= now() - make_interval(days => ${CONFIRM_WITHIN_DAYS})
      RETURNING suggestion_id
    ),
    counted AS (
      UPDATE suggestions s
      SET follower_count = s.follower_count + 1
      FROM confirmed c
      WHERE s.business_id = $1
        AND s.id = c.suggestion_id
      RETURNING s.id
    )
    SELECT count(*)::int AS confirmed
    FROM counted`,
    [businessId, id],
  );
  return rows[0]!.confirmed > 0;
}

/**
 * Forgets a follow, or (`everything`) every follow of its address in the business, and takes the
 * confirmed ones off their suggestions' counts, in one statement. Answers how many were forgotten.
 */
export async function deleteFollows(
  db: Queryable,
  businessId: string,
  follow: { id: string; email: string },
  everything: boolean,
): Promise<number> {
  const { rows } = await db.query<{ removed: number }>(
    /* sql */ `
    WITH gone AS (
      DELETE FROM suggestion_follows
      WHERE business_id = $1
        AND (CASE WHEN $4 THEN lower(email) = lower($3) ELSE id = $2 END)
      RETURNING suggestion_id, confirmed_at
    ),
    uncounted AS (
      UPDATE suggestions s
      SET follower_count = s.follower_count - g.confirmed
      FROM (
        SELECT suggestion_id, count(*)::int AS confirmed
        FROM gone
        WHERE confirmed_at IS NOT NULL
        GROUP BY suggestion_id
      ) g
      WHERE s.business_id = $1
        AND s.id = g.suggestion_id
      RETURNING s.id
    )
    SELECT (SELECT count(*) FROM gone)::int AS removed, (SELECT count(*) FROM uncounted)::int AS uncounted`,
    [businessId, follow.id, follow.email, everything],
  );
  return rows[0]!.removed;
}

/** Deletes up to `limit` follows, of every business, still unconfirmed after 7 days. */
export async function deleteExpiredFollows(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM suggestion_follows
    WHERE id IN (
      SELECT id
      FROM suggestion_follows
      WHERE ${UNCONFIRMED_EXPIRED}
      ORDER BY created_at
      LIMIT $1
      FOR UPDATE SKIP LOCKED
    )`,
    [limit],
  );
  return rowCount ?? 0;
}

export interface FollowerRow {
  email: string;
  confirmed_at: Date;
}

/** The confirmed followers of a suggestion, oldest first (bounded: `limit`). */
export async function findFollowers(
  db: Queryable,
  businessId: string,
  suggestionId: string,
  limit: number,
): Promise<FollowerRow[]> {
  const { rows } = await db.query<FollowerRow>(
    /* sql */ `
    SELECT email, confirmed_at
    FROM suggestion_follows
    WHERE business_id = $1
      AND suggestion_id = $2
      AND confirmed_at IS NOT NULL
    ORDER BY confirmed_at, id
    LIMIT $3`,
    [businessId, suggestionId, limit],
  );
  return rows;
}

/**
 * Whether the public page shows the suggestion (only those can be followed); with `ownPost` (its
 * author, who proved it), also while it awaits review: public feedback not yet approved nor refused.
 * Its row is share-locked until the transaction ends, so a merge or a review waits for the follow.
 */
export async function findFollowable(db: Queryable, businessId: string, id: string, ownPost = false): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT id
    FROM suggestions
    WHERE business_id = $1
      AND id = $2
      AND (${PUBLICLY_VISIBLE}
        OR ($3 AND visibility = 'public' AND review_state = 'pending' AND status <> 'rejected' AND merged_into IS NULL))
    FOR SHARE`,
    [businessId, id, ownPost],
  );
  return rows.length > 0;
}
