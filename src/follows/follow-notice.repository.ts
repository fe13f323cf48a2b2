import type { BrandColumns } from './follow.mail.js';
import type { Queryable } from '../db/database.js';
import type { SuggestionStatus } from '../shared/schemas.js';
import type { SuggestionReply } from '../suggestions/suggestion.columns.js';

/**
 * Notices of followed changes (migrations/0024_follow_notices.sql), written by a trigger on
 * suggestions, read and sent by the notifier. The notifier works across businesses, like the mail
 * outbox: each notice names its business, and every read below filters by it.
 */
export interface DueNotice {
  id: string;
  business_id: string;
  suggestion_id: string;
  from_status: SuggestionStatus;
  from_reply: SuggestionReply | null;
  business_name: string;
  /** The business's brand, for the message's logo and links. */
  brand_color: string | null;
  logo: BrandColumns['logo'];
  notify_followers: boolean;
  content: string;
  status: SuggestionStatus;
  reply: SuggestionReply | null;
  /** Public, and needing no review or approved: the only suggestions that notify. */
  shown: boolean;
}

/**
 * The business's part of a notice's message, for a notice `n` joined to its business `b`: its name,
 * whether it notifies at all, and its brand (colour and logo). Status and changelog notices alike.
 */
export const NOTICE_BUSINESS_COLUMNS = /* sql */ `b.name AS business_name, b.notify_followers, b.brand_color,
      (SELECT json_build_object('hash', g.hash, 'content_type', g.content_type, 'width', g.width, 'height', g.height)
        FROM business_logos g WHERE g.business_id = n.business_id) AS logo`;

/** A DueNotice's columns and joins: the status notice `n`, its business `b` and suggestion `s`. */
export const DUE_NOTICE_FROM = /* sql */ `
    SELECT n.id, n.business_id, n.suggestion_id, n.from_status, n.from_reply,
      ${NOTICE_BUSINESS_COLUMNS},
      s.content, s.status, s.reply,
      (s.visibility = 'public' AND s.review_state IN ('not_required', 'approved')) AS shown
    FROM follow_notices n
    JOIN businesses b ON b.id = n.business_id
    JOIN suggestions s ON s.business_id = n.business_id AND s.id = n.suggestion_id`;

/**
 * One notice due at `asOf`, locked for the caller's transaction; others skip it meanwhile. Its
 * suggestion is locked too (shared), and a notice whose suggestion a transaction is changing is
 * skipped until it commits: that change found the notice there and joined it (the trigger's DO
 * NOTHING), so read before its commit the message would tell the status before it, and the change
 * would never be told. A change that comes once the notice is taken waits for the notice's
 * transaction, then leaves a notice of its own.
 */
export async function claimDueNotice(db: Queryable, asOf: Date): Promise<DueNotice | null> {
  const { rows } = await db.query<DueNotice>(
    /* sql */ `${DUE_NOTICE_FROM}
    WHERE n.due_at <= $1
    ORDER BY n.due_at
    LIMIT 1
    FOR UPDATE OF n SKIP LOCKED
    FOR SHARE OF s SKIP LOCKED`,
    [asOf],
  );
  return rows[0] ?? null;
}

export async function deleteNotice(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM follow_notices
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}

/** Tries the notice again later: the business's hourly cap is spent, or some followers are left. */
export async function postponeNotice(db: Queryable, businessId: string, id: string, delayMs: number): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE follow_notices
    SET due_at = now() + make_interval(secs => $3::double precision / 1000)
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id, delayMs],
  );
}

/** Notifications the business queued in the last hour (a changelog message counts once, whatever it carried). */
export async function countRecentNotifications(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ sent: number }>(
    /* sql */ `
    SELECT count(*)::int AS sent
    FROM follow_mail_log
    WHERE business_id = $1
      AND counted
      AND created_at > now() - interval '1 hour'`,
    [businessId],
  );
  return rows[0]!.sent;
}

export interface NotifiedFollower {
  id: string;
  email: string;
  link_key: Buffer;
  code: string | null;
  /** The language the follower read the page in when following. */
  locale: string;
}

/** Confirmed followers of the suggestion this notice has not mailed yet, at most `limit`. */
export async function findUnnotifiedFollowers(
  db: Queryable,
  notice: { business_id: string; suggestion_id: string; id: string },
  limit: number,
): Promise<NotifiedFollower[]> {
  const { rows } = await db.query<NotifiedFollower>(
    /* sql */ `
    SELECT f.id, f.email, f.link_key, f.language AS locale, q.code
    FROM suggestion_follows f
    LEFT JOIN qr_codes q ON q.business_id = f.business_id AND q.id = f.qr_code_id AND q.active
    WHERE f.business_id = $1
      AND f.suggestion_id = $2
      AND f.confirmed_at IS NOT NULL
      AND NOT EXISTS (
        SELECT 1
        FROM follow_mail_log l
        WHERE l.notice_id = $3
          AND l.follow_id = f.id)
    ORDER BY f.id
    LIMIT $4`,
    [notice.business_id, notice.suggestion_id, notice.id, limit],
  );
  return rows;
}

export async function insertNotificationLog(
  db: Queryable,
  businessId: string,
  noticeId: string,
  followIds: string[],
): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO follow_mail_log (business_id, notice_id, follow_id)
    SELECT $1, $2, unnest($3::uuid[])`,
    [businessId, noticeId, followIds],
  );
}

/** Log rows older than a day: the cap looks back an hour, a notice is done within minutes. */
export async function deleteOldNotificationLog(db: Queryable): Promise<void> {
  await db.query(/* sql */ `
    DELETE FROM follow_mail_log
    WHERE created_at < now() - interval '1 day'`);
}
