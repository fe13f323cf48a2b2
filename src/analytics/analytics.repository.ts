import type { Queryable } from '../db/database.js';

export interface ActivityRow {
  id: number;
  type: string;
  entity_type: string;
  entity_id: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_api_key_id: string | null;
  actor_api_key_name: string | null;
  actor_qr_code_id: string | null;
  created_at: Date;
}

export async function latestActivity(db: Queryable, businessId: string, limit: number): Promise<ActivityRow[]> {
  const { rows } = await db.query<ActivityRow>(
    /* sql */ `
    SELECT a.id, a.type, a.entity_type, a.entity_id, a.actor_user_id, u.name AS actor_name,
           a.actor_api_key_id, k.name AS actor_api_key_name, a.actor_qr_code_id, a.created_at
    FROM activity a
    LEFT JOIN users u ON u.id = a.actor_user_id
    LEFT JOIN api_keys k ON k.id = a.actor_api_key_id
    WHERE a.business_id = $1
    ORDER BY a.created_at DESC, a.id DESC
    LIMIT $2`,
    [businessId, limit],
  );
  return rows;
}

/** One entity's activity, oldest first, with what each entry recorded (a change's `from` and `to`). */
export async function entityActivity(
  db: Queryable,
  businessId: string,
  entityType: string,
  entityId: string,
  limit: number,
): Promise<(ActivityRow & { data: Record<string, unknown> })[]> {
  const { rows } = await db.query<ActivityRow & { data: Record<string, unknown> }>(
    /* sql */ `
    SELECT a.id, a.type, a.entity_type, a.entity_id, a.actor_user_id, u.name AS actor_name,
           a.actor_api_key_id, k.name AS actor_api_key_name, a.actor_qr_code_id, a.data, a.created_at
    FROM activity a
    LEFT JOIN users u ON u.id = a.actor_user_id
    LEFT JOIN api_keys k ON k.id = a.actor_api_key_id
    WHERE a.business_id = $1 AND a.entity_type = $2 AND a.entity_id = $3
    ORDER BY a.created_at, a.id
    LIMIT $4`,
    [businessId, entityType, entityId, limit],
  );
  return rows;
}

export interface LocationPageRow {
  location_id: string | null;
  name: string | null;
  scans: number;
  submissions: number;
}

/**
 * Per location (null: codes and feedback with none), page opens and feedback posted from the page in
 * the last 30 days. Locations with neither are left out.
 */
export async function pageFiguresByLocation(db: Queryable, businessId: string): Promise<LocationPageRow[]> {
  const { rows } = await db.query<LocationPageRow>(
    /* sql */ `
    WITH scans AS (
      SELECT q.location_id, sum(s.scans) AS scans
      FROM qr_code_scans s
      JOIN qr_codes q ON q.id = s.qr_code_id
      WHERE s.business_id = $1
        AND s.day > (now() AT TIME ZONE 'UTC')::date - 30
      GROUP BY q.location_id
    ), submissions AS (
      SELECT location_id, count(*) AS submissions
      FROM suggestions
      WHERE business_id = $1
        AND source = 'qr_code'
        AND created_at > now() - interval '30 days'
      GROUP BY location_id
    )
    SELECT f.location_id, l.name, COALESCE(sc.scans, 0) AS scans, COALESCE(su.submissions, 0) AS submissions
    FROM (SELECT location_id FROM scans UNION SELECT location_id FROM submissions) AS f
    LEFT JOIN scans sc ON sc.location_id IS NOT DISTINCT FROM f.location_id
    LEFT JOIN submissions su ON su.location_id IS NOT DISTINCT FROM f.location_id
    LEFT JOIN locations l ON l.business_id = $1 AND l.id = f.location_id
    ORDER BY l.name NULLS LAST`,
    [businessId],
  );
  return rows;
}
