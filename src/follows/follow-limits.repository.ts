import type { Queryable } from '../db/database.js';
import { CONFIRM_WITHIN_DAYS } from './follow.repository.js';

/**
 * What holds a new follow back (docs/notifications.md): the confirmations an address waits on, the
 * confirmations a business sent in the last hour, and a `posted_token` already spent. Each is read
 * and then acted on, so the follows of one business take turns (lockFollowSends) for the counts to
 * stay exact when many arrive at once.
 */

/** A constant class of advisory locks, with the business's hash as the key: one lock per business. */
const FOLLOW_SENDS_LOCK = 72150423;

/**
 * Serialises the new follows of one business until the transaction ends, so two at once cannot both
 * count the same confirmations and both pass a cap (under READ COMMITTED each would see the other's
 * insert only once committed). Follows are few (a business sends at most its hourly cap), so waiting
 * costs nothing a visitor would notice.
 */
export async function lockFollowSends(db: Queryable, businessId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FOLLOW_SENDS_LOCK, businessId]);
}

/**
 * Records that the suggestion's posted_token has started its follow; false when it already had (its
 * row exists, or another transaction's insert of it commits first: the primary key waits for it).
 */
export async function insertPostedUse(db: Queryable, businessId: string, suggestionId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    INSERT INTO follow_posted_uses (business_id, suggestion_id)
    VALUES ($1, $2)
    ON CONFLICT (business_id, suggestion_id) DO NOTHING`,
    [businessId, suggestionId],
  );
  return rowCount === 1;
}

/**
 * Past `limit` follows made in the business within the last `ms` (each sent one confirmation), how
 * long until the oldest of the latest `limit` leaves that window; null while under the limit.
 */
export async function followSendsWait(db: Queryable, businessId: string, window: { ms: number; limit: number }) {
  const { rows } = await db.query<{ wait_ms: number }>(
    /* sql */ `
    SELECT EXTRACT(EPOCH FROM created_at - now())::double precision * 1000 + $2::double precision AS wait_ms
    FROM suggestion_follows
    WHERE business_id = $1
      AND created_at > now() - make_interval(secs => $2::double precision / 1000)
    ORDER BY created_at DESC
    LIMIT 1
    OFFSET $3::integer - 1`,
    [businessId, window.ms, window.limit],
  );
  return rows[0]?.wait_ms ?? null;
}

/** The address's follows in the business still waiting for confirmation (those within their 7 days). */
export async function countPendingFollows(db: Queryable, businessId: string, email: string): Promise<number> {
  const { rows } = await db.query<{ pending: number }>(
    /* sql */ `
    SELECT count(*)::int AS pending
    FROM suggestion_follows
    WHERE business_id = $1
      AND lower(email) = lower($2)
      AND confirmed_at IS NULL
      AND created_at >= now() - make_interval(days => ${CONFIRM_WITHIN_DAYS})`,
    [businessId, email],
  );
  return rows[0]!.pending;
}
