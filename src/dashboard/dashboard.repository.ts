import type { Queryable } from '../db/database.js';
import { LIVE_SESSION_MEMBER } from '../auth/credential.repository.js';
import { changeNumberSql } from '../cache/change.repository.js';
import type { Role } from '../shared/schemas.js';
import type { MembershipSummaryRow } from '../sessions/session.repository.js';

/** The most locations a page offers to choose from (the inbox's location filter), by name. */
const LOCATIONS_OFFERED = 100;

/**
 * What a page of one business needs before its own reads: findSessionMember's live session, role and
 * change number, with the user, every business they belong to (the business switch) and the named
 * business's settings, locations and tags (the inbox's filters).
 */
export interface MemberPageRow {
  session_id: string;
  user_id: string;
  /** null: a live session, but not of a member of this business */
  role: Role | null;
  change_number: number;
  /** null once the user is deleted (their sessions go with them) */
  user: { email: string; name: string | null } | null;
  memberships: MembershipSummaryRow[];
  approval_required: boolean;
  locations: { id: string; name: string }[];
  /** The business's tag names, by name (at most 200 a business: docs/tags.md). */
  tags: string[];
}

/**
 * One round trip for all of it, as businessAuth makes one for a Bearer session, so a dashboard page
 * costs what the JSON route beside it costs (the inbox is measured against the business list in the
 * benchmark). The session's conditions are findSessionMember's (LIVE_SESSION_MEMBER).
 */
export async function findMemberPage(db: Queryable, digest: Buffer, businessId: string): Promise<MemberPageRow | null> {
  const { rows } = await db.query<MemberPageRow>(
    /* sql */ `
    SELECT s.id AS session_id, s.user_id, m.role, ${changeNumberSql('$2::uuid')} AS change_number,
      (SELECT json_build_object('email', u.email, 'name', u.name) FROM users u WHERE u.id = s.user_id) AS user,
      coalesce((
        SELECT json_agg(json_build_object('business_id', a.business_id, 'business_name', b.name, 'role', a.role)
          ORDER BY b.name, b.id)
        FROM memberships a
        JOIN businesses b ON b.id = a.business_id
        WHERE a.user_id = s.user_id), '[]'::json) AS memberships,
      coalesce((
        SELECT b.approval_required
        FROM businesses b
        WHERE b.id = $2), false) AS approval_required,
      coalesce((
        SELECT json_agg(json_build_object('id', l.id, 'name', l.name) ORDER BY l.name, l.id)
        FROM (
          SELECT id, name
          FROM locations
          WHERE business_id = $2
          ORDER BY name, id
          LIMIT ${LOCATIONS_OFFERED}) AS l), '[]'::json) AS locations,
      ARRAY(
        SELECT t.name
        FROM tags t
        WHERE t.business_id = $2
        ORDER BY lower(t.name), t.id) AS tags
    FROM ${LIVE_SESSION_MEMBER}`,
    [digest, businessId],
  );
  return rows[0] ?? null;
}
