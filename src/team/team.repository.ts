import type { Queryable } from '../db/database.js';
import type { Role } from '../shared/schemas.js';
import type { MemberRow } from '../users/user.repository.js';

export interface InviteRow {
  id: string;
  business_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

const INVITE_COLUMNS = 'id, business_id, email, role, created_at, expires_at';

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
export async function findPendingInvites(db: Queryable, businessId: string): Promise<InviteRow[]> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    SELECT ${INVITE_COLUMNS}
    FROM team_invites
    WHERE business_id = $1
      AND accepted_at IS NULL
      AND cancelled_at IS NULL
      AND expires_at > now()
    ORDER BY created_at, id`,
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
  invite: { id: string; email: string; role: Role; digest: Buffer; invitedBy: string; lifetimeMs: number },
): Promise<InviteRow> {
  const { rows } = await db.query<InviteRow>(
    /* sql */ `
    INSERT INTO team_invites (id, business_id, email, role, token_digest, invited_by, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000))
    RETURNING ${INVITE_COLUMNS}`,
    [invite.id, businessId, invite.email, invite.role, invite.digest, invite.invitedBy, invite.lifetimeMs],
  );
  return rows[0]!;
}

export async function cancelInvite(db: Queryable, businessId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE team_invites
    SET cancelled_at = now()
    WHERE business_id = $1
      AND id = $2
      AND accepted_at IS NULL
      AND cancelled_at IS NULL`,
    [businessId, id],
  );
  return rowCount === 1;
}

/**
 * Consumes a usable invite in one statement, so two concurrent accepts cannot both succeed. Not by
 * business: the token is what identifies the invite (and so the business).
 */
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
