import type { Queryable } from '../db/database.js';
import type { MailStatus } from '../mail/mail.repository.js';
import type { Role } from '../shared/schemas.js';
import type { MemberRow } from '../users/user.repository.js';

export interface InviteRow {
  id: string;
  business_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  /** The token was returned to the inviter (development mail mode): accepting proves nothing about the email. */
  token_shown: boolean;
  mail_id: string | null;
}

/** A pending invite and the state of its message. */
export interface PendingInviteRow extends InviteRow {
  delivery: MailStatus | null;
}

const INVITE_COLUMNS = 'id, business_id, email, role, created_at, expires_at, token_shown, mail_id';

export async function findMembers(db: Queryable, businessId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    /* sql */ `
    SELECT u.id, u.email, u.name, u.created_at, m.role, m.created_at AS joined_at
    FROM memberships m
    JOIN users u ON u.id = m.user_id
    WHERE m.business_id = $1
    ORDER BY m.created_at, u.id`,
    [businessId],
  );
  return rows;
}

/** Open invites: neither accepted, cancelled nor expired. */
export async function findPendingInvites(db: Queryable, businessId: string): Promise<PendingInviteRow[]> {
  const { rows } = await db.query<PendingInviteRow>(
    /* sql */ `
    SELECT i.id, i.business_id, i.email, i.role, i.created_at, i.expires_at, i.token_shown, i.mail_id,
      o.status AS delivery
    FROM team_invites i
    LEFT JOIN mail_outbox o ON o.id = i.mail_id
    WHERE i.business_id = $1
      AND i.accepted_at IS NULL
      AND i.cancelled_at IS NULL
      AND i.expires_at > now()
    ORDER BY i.created_at, i.id`,
    [businessId],
  );
  return rows;
}

export async function memberEmailExists(db: Queryable, businessId: string, email: string): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT 1
    FROM memberships m
    JOIN users u ON u.id = m.user_id
    WHERE m.business_id = $1
      AND lower(u.email) = lower($2)`,
    [businessId, email],
  );
  return rows.length > 0;
}

/** An expired invite no longer blocks a new one for the same email. */
export async function cancelExpiredInvites(db: Queryable, businessId: string, email: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE team_invites
    SET cancelled_at = now()
    WHERE business_id = $1
      AND lower(email) = lower($2)
      AND accepted_at IS NULL
      AND cancelled_at IS NULL
      AND expires_at <= now()`,
    [businessId, email],
  );
}

export async function insertInvite(
  db: Queryable,
  businessId: string,
  invite: {
    id: string;
    email: string;
    role: Role;
    digest: Buffer;
    invitedBy: string;
    lifetimeMs: number;
    mailId: string;
    tokenShown: boolean;
  },
): Promise<InviteRow> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    INSERT INTO team_invites (id, business_id, email, role, token_digest, invited_by, expires_at, mail_id, token_shown)
    VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000), $8, $9)
    RETURNING ${INVITE_COLUMNS}`,
    [
      invite.id,
      businessId,
      invite.email,
      invite.role,
      invite.digest,
      invite.invitedBy,
      invite.lifetimeMs,
      invite.mailId,
      invite.tokenShown,
    ],
  );
  return rows[0]!;
}

/**
 * Serialises the invites of one business until the transaction ends, so that two at once cannot both
 * count the same sends and both pass a cap. (A constant class and the business's hash: one lock each.)
 */
export async function lockInviteSends(db: Queryable, businessId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(72150402, hashtext($1))', [businessId]);
}

/**
 * How long until the business's invites sent in the last `windowMs` (to `email` only, when given) are
 * fewer than `limit` again, in milliseconds; null when they already are. Every invite counts, whatever
 * became of it (cancelled, expired, accepted): each was an email, and its row is never deleted.
 */
export async function inviteSendsWait(
  db: Queryable,
  businessId: string,
  window: { ms: number; limit: number; email?: string },
): Promise<number | null> {
  const { rows } = await db.query<{ wait_ms: number }>(
    /* sql */ `
    SELECT EXTRACT(EPOCH FROM created_at - now())::double precision * 1000 + $2::double precision AS wait_ms
    FROM team_invites
    WHERE business_id = $1
      AND created_at > now() - make_interval(secs => $2::double precision / 1000)
      AND ($4::text IS NULL OR lower(email) = lower($4))
    ORDER BY created_at DESC
    LIMIT 1
    OFFSET $3::integer - 1`,
    [businessId, window.ms, window.limit, window.email ?? null],
  );
  return rows[0]?.wait_ms ?? null;
}

/** An invite that is neither accepted nor cancelled, locked until the transaction ends. */
export async function findOpenInvite(db: Queryable, businessId: string, id: string): Promise<InviteRow | null> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    SELECT ${INVITE_COLUMNS}
    FROM team_invites
    WHERE business_id = $1
      AND id = $2
      AND accepted_at IS NULL
      AND cancelled_at IS NULL
    FOR UPDATE`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

export async function cancelInvite(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE team_invites
    SET cancelled_at = now()
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}

/**
 * A usable invite (not accepted, cancelled or expired), by its token's digest. Not by business:
 * the token is what identifies the invite (and so the business).
 */
export async function findUsableInvite(db: Queryable, digest: Buffer): Promise<InviteRow | null> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    SELECT ${INVITE_COLUMNS}
    FROM team_invites
    WHERE token_digest = $1
      AND accepted_at IS NULL
      AND cancelled_at IS NULL
      AND expires_at > now()`,
    [digest],
  );
  return rows[0] ?? null;
}

/** Consumes a usable invite in one statement, so two concurrent accepts cannot both succeed. */
export async function consumeInvite(db: Queryable, digest: Buffer): Promise<InviteRow | null> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    UPDATE team_invites
    SET accepted_at = now()
    WHERE token_digest = $1
      AND accepted_at IS NULL
      AND cancelled_at IS NULL
      AND expires_at > now()
    RETURNING ${INVITE_COLUMNS}`,
    [digest],
  );
  return rows[0] ?? null;
}

export async function countOwners(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ owners: number }>(
    /* sql */ `
    SELECT count(*) AS owners
    FROM memberships
    WHERE business_id = $1
      AND role = 'owner'`,
    [businessId],
  );
  return rows[0]!.owners;
}

export async function updateMemberRole(db: Queryable, businessId: string, userId: string, role: Role): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE memberships
    SET role = $3
    WHERE business_id = $1
      AND user_id = $2`,
    [businessId, userId, role],
  );
}

export async function deleteMembership(db: Queryable, businessId: string, userId: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM memberships
    WHERE business_id = $1
      AND user_id = $2`,
    [businessId, userId],
  );
}
