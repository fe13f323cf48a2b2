import type { Queryable } from '../db/database.js';

export interface CountRow {
  key: string;
  count: number;
}

export interface SentimentRow {
  sentiment: string;
  count: number;
  average_score: number | null;
}

export interface RecentCountsRow {
  last_7_days: number;
  last_30_days: number;
}

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

/** Constant table names: the only two that are counted by status. */
const STATUS_TABLES = { suggestions: 'suggestions', issues: 'issues' } as const;

export async function countByStatus(
  db: Queryable,
  businessId: string,
  table: keyof typeof STATUS_TABLES,
): Promise<CountRow[]> {
  const { rows } = await db.query<CountRow>(
    /* sql */ `
    SELECT status::text AS key, count(*) AS count
    FROM ${STATUS_TABLES[table]}
    WHERE business_id = $1
    GROUP BY status`,
    [businessId],
  );
  return rows;
}

export async function sentimentBreakdown(db: Queryable, businessId: string): Promise<SentimentRow[]> {
  const { rows } = await db.query<SentimentRow>(
    /* sql */ `
    SELECT sentiment::text AS sentiment, count(*) AS count, avg(sentiment_score)::float8 AS average_score
    FROM suggestions
    WHERE business_id = $1
    GROUP BY sentiment`,
    [businessId],
  );
  return rows;
}

/** Reads only the last 30 days of the (business_id, created_at) index. */
export async function countRecent(
  db: Queryable,
  businessId: string,
  table: keyof typeof STATUS_TABLES,
): Promise<RecentCountsRow> {
  const { rows } = await db.query<RecentCountsRow>(
    /* sql */ `
    SELECT count(*) FILTER (WHERE created_at >= now() - interval '7 days') AS last_7_days,
           count(*) AS last_30_days
    FROM ${STATUS_TABLES[table]}
    WHERE business_id = $1
      AND created_at >= now() - interval '30 days'`,
    [businessId],
  );
  return rows[0]!;
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
