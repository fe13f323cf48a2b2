import type { BrandColumns } from './follow.mail.js';
import type { Queryable } from '../db/database.js';
import { DUE_NOTICE_FROM, NOTICE_BUSINESS_COLUMNS, type DueNotice } from './follow-notice.repository.js';

/**
 * The notices of published changelog entries (migrations/0045_changelog.sql): written in the
 * publication's transaction, sent by the follow notifier with the status notices' cap and log. Like
 * theirs, each read names the business of the notice it works on.
 */

/** An entry to tell its suggestions' followers about, now. */
export async function insertChangelogNotice(db: Queryable, businessId: string, entryId: string): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO changelog_notices (business_id, entry_id)
    VALUES ($1, $2)
    ON CONFLICT (entry_id) DO NOTHING`,
    [businessId, entryId],
  );
}

/** The suggestions among `ids` that have a follower notice waiting. */
export async function findNoticedSuggestions(db: Queryable, businessId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ suggestion_id: string }>(
    /* sql */ `
    SELECT suggestion_id
    FROM follow_notices
    WHERE business_id = $1
      AND suggestion_id = ANY($2::uuid[])`,
    [businessId, ids],
  );
  return rows.map((row) => row.suggestion_id);
}

/** Drops the waiting notices of `ids` but those of `keep`: changes whose followers are to hear nothing. */
export async function deleteNoticesExcept(
  db: Queryable,
  businessId: string,
  ids: string[],
  keep: string[],
): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM follow_notices
    WHERE business_id = $1
      AND suggestion_id = ANY($2::uuid[])
      AND NOT (suggestion_id = ANY($3::uuid[]))`,
    [businessId, ids, keep],
  );
}

export interface DueChangelogNotice {
  id: string;
  business_id: string;
  entry_id: string;
  business_name: string;
  brand_color: string | null;
  logo: BrandColumns['logo'];
  notify_followers: boolean;
  title: string;
  body: string;
  suggestion_ids: string[];
}

/** One changelog notice due at `asOf`, locked for the caller's transaction; others skip it meanwhile. */
export async function claimDueChangelogNotice(db: Queryable, asOf: Date): Promise<DueChangelogNotice | null> {
  const { rows } = await db.query<DueChangelogNotice>(
    /* sql */ `
    SELECT n.id, n.business_id, n.entry_id,
      ${NOTICE_BUSINESS_COLUMNS},
      e.title, e.body, e.suggestion_ids
    FROM changelog_notices n
    JOIN businesses b ON b.id = n.business_id
    JOIN changelog_entries e ON e.business_id = n.business_id AND e.id = n.entry_id
    WHERE n.due_at <= $1
      AND e.published_at IS NOT NULL
    ORDER BY n.due_at
    LIMIT 1
    FOR UPDATE OF n SKIP LOCKED`,
    [asOf],
  );
  return rows[0] ?? null;
}

export async function deleteChangelogNotice(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM changelog_notices
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}

export async function postponeChangelogNotice(
  db: Queryable,
  businessId: string,
  id: string,
  delayMs: number,
): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE changelog_notices
    SET due_at = now() + make_interval(secs => $3::double precision / 1000)
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id, delayMs],
  );
}

/** One follow of an address among those an entry's message stands for. */
export interface AddressFollow {
  id: string;
  suggestion_id: string;
  link_key: Buffer;
  code: string | null;
  /** The language the follower read the page in when following: their emails are written in it. */
  locale: string;
  /** The suggestion's text, which the message quotes. */
  content: string;
}

/** An address to mail about an entry: every confirmed follow it has of the entry's suggestions, first follow first. */
export interface ChangelogRecipient {
  email: string;
  follows: AddressFollow[];
}

/**
 * The addresses following any shown suggestion the entry names, confirmed, that this notice has not
 * mailed yet: at most `limit` addresses (compared ignoring case), each with all its follows of them.
 */
export async function findChangelogRecipients(
  db: Queryable,
  notice: { business_id: string; id: string; suggestion_ids: string[] },
  limit: number,
): Promise<ChangelogRecipient[]> {
  const { rows } = await db.query<{
    email: string;
    follows: (Omit<AddressFollow, 'link_key'> & { link_key: string })[];
  }>(
    /* sql */ `
    WITH followed AS (
      SELECT f.id, f.suggestion_id, f.email, f.link_key, f.language, q.code, s.content, lower(f.email) AS address
      FROM suggestion_follows f
      JOIN suggestions s ON s.business_id = f.business_id AND s.id = f.suggestion_id
      LEFT JOIN qr_codes q ON q.business_id = f.business_id AND q.id = f.qr_code_id AND q.active
      WHERE f.business_id = $1
        AND f.suggestion_id = ANY($2::uuid[])
        AND f.confirmed_at IS NOT NULL
        AND s.visibility = 'public'
        AND s.review_state IN ('not_required', 'approved')
    ),
    waiting AS (
      SELECT address
      FROM followed
      GROUP BY address
      HAVING NOT bool_or(EXISTS (
        SELECT 1
        FROM follow_mail_log l
        WHERE l.notice_id = $3
          AND l.follow_id = followed.id))
      ORDER BY min(id::text)
      LIMIT $4
    )
    SELECT min(f.email) AS email,
      json_agg(json_build_object('id', f.id, 'suggestion_id', f.suggestion_id,
        'link_key', encode(f.link_key, 'hex'), 'locale', f.language, 'code', f.code, 'content', f.content) ORDER BY f.id) AS follows
    FROM followed f
    JOIN waiting w ON w.address = f.address
    GROUP BY f.address
    ORDER BY min(f.id::text)`,
    [notice.business_id, notice.suggestion_ids, notice.id, limit],
  );
  return rows.map((row) => ({
    email: row.email,
    follows: row.follows.map((follow) => ({ ...follow, link_key: Buffer.from(follow.link_key, 'hex') })),
  }));
}

/**
 * The status notices waiting on `suggestionIds`, with what their message would say now, locked: the
 * changelog message carries them to the followers it reaches, and their own run skips those. Their
 * suggestions are locked too (shared): a change being committed is waited for and read, never told
 * as the status before it (claimDueNotice).
 */
export async function findWaitingNotices(
  db: Queryable,
  businessId: string,
  suggestionIds: string[],
): Promise<DueNotice[]> {
  const { rows } = await db.query<DueNotice>(
    /* sql */ `${DUE_NOTICE_FROM}
    WHERE n.business_id = $1
      AND n.suggestion_id = ANY($2::uuid[])
    ORDER BY n.suggestion_id
    FOR UPDATE OF n
    FOR SHARE OF s`,
    [businessId, suggestionIds],
  );
  return rows;
}

/**
 * Logs a changelog message: every follow it stands for under the changelog notice, and under each
 * status notice it carried, with only the first row counted towards the hourly cap.
 */
export async function insertChangelogLog(
  db: Queryable,
  businessId: string,
  rows: { noticeId: string; followId: string; counted: boolean }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    /* sql */ `
    INSERT INTO follow_mail_log (business_id, notice_id, follow_id, counted)
    SELECT $1, r.notice_id, r.follow_id, r.counted
    FROM unnest($2::uuid[], $3::uuid[], $4::boolean[]) AS r (notice_id, follow_id, counted)
    ON CONFLICT (notice_id, follow_id) DO NOTHING`,
    [businessId, rows.map((r) => r.noticeId), rows.map((r) => r.followId), rows.map((r) => r.counted)],
  );
}
