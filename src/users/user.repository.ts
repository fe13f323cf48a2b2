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
  user: { id: string; email: string; name: string | null; passwordHash: string | null },
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    /* sql */ `
    INSERT INTO users (id, email, name, password_hash)
    VALUES ($1, $2, $3, $4)
    RETURNING id, email, name, created_at`,
    [user.id, user.email, user.name, user.passwordHash],
  );
  return rows[0]!;
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

export async function findUserById(db: Queryable, userId: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    /* sql */ `
    SELECT id, email, name, created_at
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
