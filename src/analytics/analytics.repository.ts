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
  created_at: Date;
}

export async function latestActivity(db: Queryable, businessId: string, limit: number): Promise<ActivityRow[]> {
  const { rows } = await db.query<ActivityRow>(
    /* sql */ `
    SELECT a.id, a.type, a.entity_type, a.entity_id, a.actor_user_id, u.name AS actor_name,
           a.actor_api_key_id, k.name AS actor_api_key_name, a.created_at
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
