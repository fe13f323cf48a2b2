import type { Queryable } from '../db/database.js';

/**
 * The outbox: messages written in the transaction that caused them, delivered after it commits. Not
 * filtered by business: a message belongs to its recipient, and only the sender reads these rows.
 */

export type MailStatus = 'pending' | 'sent' | 'failed';

export interface NewMail {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  /** Not sent after this long: the token it carries has expired. */
  lifetimeMs: number;
  /** Extra headers (List-Unsubscribe): erased with the bodies, as they may carry a link's token. */
  headers?: Record<string, string>;
}

export interface MailRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string> | null;
  attempts: number;
  expired: boolean;
}

/**
 * How long a new message is left to the instance that wrote it (which sends it right after commit)
 * before any instance's poll may take it: only if that instance died first.
 */
export const NEW_MAIL_HOLD_MS = 60_000;

const CLAIMED_COLUMNS =
  'id, recipient, subject, text_body, html_body, headers, attempts, expires_at <= now() AS expired';

export async function insertMail(db: Queryable, mail: NewMail): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO mail_outbox (id, recipient, subject, text_body, html_body, next_attempt_at, expires_at, headers)
    VALUES ($1, $2, $3, $4, $5,
      now() + make_interval(secs => $6::double precision / 1000),
      now() + make_interval(secs => $7::double precision / 1000),
      $8::jsonb)`,
    [
      mail.id,
      mail.recipient,
      mail.subject,
      mail.text,
      mail.html,
      NEW_MAIL_HOLD_MS,
      mail.lifetimeMs,
      mail.headers ? JSON.stringify(mail.headers) : null,
    ],
  );
}

/** A message never tried yet, for the instance that just wrote it; taken for `leaseMs`. */
export async function claimNewMail(db: Queryable, id: string, leaseMs: number): Promise<MailRow | null> {
  const { rows } = await db.query<MailRow>(
    /* sql */ `
    UPDATE mail_outbox
    SET attempts = attempts + 1,
      next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
    WHERE id = $1
      AND status = 'pending'
      AND attempts = 0
    RETURNING ${CLAIMED_COLUMNS}`,
    [id, leaseMs],
  );
  return rows[0] ?? null;
}

/**
 * Takes up to `limit` messages that are due, each for `leaseMs`: another instance skips them
 * meanwhile, and takes them again after the lease if this one died while sending.
 */
export async function claimDueMail(db: Queryable, limit: number, leaseMs: number): Promise<MailRow[]> {
  const { rows } = await db.query<MailRow>(
    /* sql */ `
    UPDATE mail_outbox
    SET attempts = attempts + 1,
      next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
    WHERE id IN (
      SELECT id
      FROM mail_outbox
      WHERE status = 'pending'
        AND next_attempt_at <= now()
      ORDER BY next_attempt_at
      LIMIT $1
      FOR UPDATE SKIP LOCKED)
    RETURNING ${CLAIMED_COLUMNS}`,
    [limit, leaseMs],
  );
  return rows;
}

/** Sent, or given up on: either way the bodies, and the token in them, are erased. */
export async function finishMail(db: Queryable, id: string, status: 'sent' | 'failed', error: string | null) {
  await db.query(
    /* sql */ `
    UPDATE mail_outbox
    SET status = $2::mail_status,
      sent_at = CASE WHEN $2::mail_status = 'sent' THEN now() END,
      last_error = $3,
      text_body = NULL,
      html_body = NULL,
      headers = NULL
    WHERE id = $1`,
    [id, status, error],
  );
}

export async function scheduleMailRetry(db: Queryable, id: string, delayMs: number, error: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE mail_outbox
    SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000),
      last_error = $3
    WHERE id = $1
      AND status = 'pending'`,
    [id, delayMs, error],
  );
}

/** A message that is no longer wanted (its invite was cancelled): never sent, its token erased. */
export async function withdrawMail(db: Queryable, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE mail_outbox
    SET status = 'failed',
      last_error = 'withdrawn before it was sent',
      text_body = NULL,
      html_body = NULL,
      headers = NULL
    WHERE id = $1
      AND status = 'pending'`,
    [id],
  );
}

/** Finished messages older than `ageMs`, a batch at a time: the outbox does not grow forever. */
export async function deleteOldMail(db: Queryable, ageMs: number): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM mail_outbox
    WHERE id IN (
      SELECT id
      FROM mail_outbox
      WHERE status <> 'pending'
        AND created_at < now() - make_interval(secs => $1::double precision / 1000)
      LIMIT 1000)`,
    [ageMs],
  );
  return rowCount ?? 0;
}
