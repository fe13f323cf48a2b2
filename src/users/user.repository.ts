import type { Queryable } from '../db/database.js';
import type { Role } from '../shared/schemas.js';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  created_at: Date;
}

export interface MemberRow extends UserRow {
  role: Role;
  joined_at: Date;
}

export async function insertUser(
  db: Queryable,
  user: { id: string; email: string; name: string | null; passwordHash: string | null; emailVerified?: boolean },
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    /* sql */ `
    INSERT INTO users (id, email, name, password_hash, email_verified_at)
    VALUES ($1, $2, $3, $4, CASE WHEN $5::boolean THEN now() END)
    RETURNING id, email, name, created_at`,
    [user.id, user.email, user.name, user.passwordHash, user.emailVerified ?? false],
  );
  return rows[0]!;
}

/** The user showed they control their address: a token that went to it came back. */
export async function markEmailVerified(db: Queryable, userId: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE users
    SET email_verified_at = COALESCE(email_verified_at, now())
    WHERE id = $1`,
    [userId],
  );
}

export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE users
    SET password_hash = $2
    WHERE id = $1`,
    [userId, passwordHash],
  );
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    /* sql */ `
    SELECT id, email, name, created_at
    FROM users
    WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

/** A user as they see themselves: with whether their email is verified. */
export interface AccountRow extends UserRow {
  email_verified_at: Date | null;
}

export async function findUserById(db: Queryable, userId: string): Promise<AccountRow | null> {
  const { rows } = await db.query<AccountRow>(
    /* sql */ `
    SELECT id, email, name, created_at, email_verified_at
    FROM users
    WHERE id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

export async function insertMembership(db: Queryable, businessId: string, userId: string, role: Role): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO memberships (business_id, user_id, role)
    VALUES ($1, $2, $3)`,
    [businessId, userId, role],
  );
}

export async function findMember(db: Queryable, businessId: string, userId: string): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(
    /* sql */ `
    SELECT u.id, u.email, u.name, u.created_at, m.role, m.created_at AS joined_at
    FROM memberships m
    JOIN users u ON u.id = m.user_id
    WHERE m.business_id = $1
      AND m.user_id = $2`,
    [businessId, userId],
  );
  return rows[0] ?? null;
}

/** The earliest owner: who a key is attributed to when no user is named. */
export async function findFirstOwner(db: Queryable, businessId: string): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(
    /* sql */ `
    SELECT u.id, u.email, u.name, u.created_at, m.role, m.created_at AS joined_at
    FROM memberships m
    JOIN users u ON u.id = m.user_id
    WHERE m.business_id = $1
      AND m.role = 'owner'
    ORDER BY m.created_at, u.id
    LIMIT 1`,
    [businessId],
  );
  return rows[0] ?? null;
}
