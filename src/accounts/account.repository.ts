import type { Queryable } from '../db/database.js';
import { NEW_MAIL_HOLD_MS } from '../mail/mail.repository.js';

/** Password resets: by the token's digest, or by user. Not by business: an account spans businesses. */

export interface PasswordResetRow {
  id: string;
  user_id: string;
}

/**
 * Writes a reset and its message for the user with this email, or nothing when there is none (or
 * when they already have `maxLive` unused, unexpired resets: no mail bombing). One statement either
 * way, so a request for an unknown email does the same work as one for a known email. The message
 * goes into the outbox as mail.repository's insertMail would put it.
 */
export async function insertPasswordReset(
  db: Queryable,
  reset: {
    email: string;
    id: string;
    digest: Buffer;
    lifetimeMs: number;
    maxLive: number;
    mail: { id: string; subject: string; text: string; html: string };
  },
): Promise<string | null> {
  const { rows } = await db.query<{ mail_id: string }>(
    /* sql */ `
    WITH target AS (
      SELECT u.id, u.email
      FROM users u
      WHERE lower(u.email) = lower($1)
        AND (
          SELECT count(*)
          FROM password_resets r
          WHERE r.user_id = u.id
            AND r.used_at IS NULL
            AND r.expires_at > now()
        ) < $2
    ),
    mail AS (
      INSERT INTO mail_outbox (id, recipient, subject, text_body, html_body, next_attempt_at, expires_at)
      SELECT $3, t.email, $4, $5, $6,
        now() + make_interval(secs => $7::double precision / 1000),
        now() + make_interval(secs => $8::double precision / 1000)
      FROM target t
      RETURNING id
    )
    INSERT INTO password_resets (id, user_id, token_digest, mail_id, expires_at)
    SELECT $9, t.id, $10, m.id, now() + make_interval(secs => $8::double precision / 1000)
    FROM target t
    CROSS JOIN mail m
    RETURNING mail_id`,
    [
      reset.email,
      reset.maxLive,
      reset.mail.id,
      reset.mail.subject,
      reset.mail.text,
      reset.mail.html,
      NEW_MAIL_HOLD_MS,
      reset.lifetimeMs,
      reset.id,
      reset.digest,
    ],
  );
  return rows[0]?.mail_id ?? null;
}

/** A reset that can still be used: not used, not expired. */
export async function findUsablePasswordReset(db: Queryable, digest: Buffer): Promise<PasswordResetRow | null> {
  const { rows } = await db.query<PasswordResetRow>(
    /* sql */ `
    SELECT id, user_id
    FROM password_resets
    WHERE token_digest = $1
      AND used_at IS NULL
      AND expires_at > now()`,
    [digest],
  );
  return rows[0] ?? null;
}

/** Uses a reset in one statement, so two concurrent confirmations cannot both succeed. */
export async function consumePasswordReset(db: Queryable, digest: Buffer): Promise<PasswordResetRow | null> {
  const { rows } = await db.query<PasswordResetRow>(
    /* sql */ `
    UPDATE password_resets
    SET used_at = now()
    WHERE token_digest = $1
      AND used_at IS NULL
      AND expires_at > now()
    RETURNING id, user_id`,
    [digest],
  );
  return rows[0] ?? null;
}

/** Once the password is set, the user's other reset links stop working too. */
export async function expirePasswordResetsOf(db: Queryable, userId: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE password_resets
    SET used_at = now()
    WHERE user_id = $1
      AND used_at IS NULL`,
    [userId],
  );
}

/**
 * For the rest of the transaction, its commit does not wait for the disk. A commit that wrote rows
 * would otherwise wait for a WAL flush that one that wrote nothing skips, and the difference would
 * tell whether an email has an account. A reset lost in a crash is simply asked for again.
 */
export async function skipCommitFlush(tx: Queryable): Promise<void> {
  await tx.query(/* sql */ `SET LOCAL synchronous_commit = off`);
}
