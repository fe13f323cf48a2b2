import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import type { RoadmapStatus } from '../businesses/business.schemas.js';
import { SUGGESTION_COLUMN_MAP, type SuggestionRow } from '../suggestions/suggestion.columns.js';

/** What a business says of its roadmap (migrations/0044_roadmap.sql). */
export interface RoadmapSettings {
  roadmap_enabled: boolean;
  roadmap_statuses: RoadmapStatus[];
}

export async function findRoadmapSettings(db: Queryable, businessId: string): Promise<RoadmapSettings | null> {
  const { rows } = await db.query<RoadmapSettings>(
    /* sql */ `
    SELECT roadmap_enabled, roadmap_statuses
    FROM businesses
    WHERE id = $1`,
    [businessId],
  );
  return rows[0] ?? null;
}

export interface ColumnRow extends SuggestionRow {
  column_status: RoadmapStatus;
}

/**
 * What the page shows in one column (PUBLICLY_VISIBLE of votes/vote.repository.ts, a roadmap never
 * showing `rejected`): public, shown (approved where review is on), not merged, in the status;
 * `completed` only since `completedSince`. Spelt as the partial index of 0044_roadmap.sql is, so
 * both statements read it: its first entries per status, and an index-only count. Each statement
 * names `s.business_id = $1` itself, where the tenancy scan sees it.
 */
const IN_COLUMN = /* sql */ `s.status = c.status::suggestion_status
        AND s.visibility = 'public'
        AND s.review_state IN ('not_required', 'approved')
        AND s.merged_into IS NULL
        AND (c.status <> 'completed' OR s.status_changed_at >= $3)`;

/** Each column's first `limit` suggestions by votes (then the newest), in the columns' order. */
export async function findColumnItems(
  db: Queryable,
  businessId: string,
  statuses: RoadmapStatus[],
  completedSince: Date,
  limit: number,
): Promise<ColumnRow[]> {
  const { rows } = await db.query<ColumnRow>(
    /* sql */ `
    SELECT c.status AS column_status, ${columnList(SUGGESTION_COLUMN_MAP, 'n')}
    FROM unnest($2::text[]) WITH ORDINALITY AS c (status, i)
    CROSS JOIN LATERAL (
      SELECT ${columnList(SUGGESTION_COLUMN_MAP, 's')}
      FROM suggestions s
      WHERE s.business_id = $1 AND ${IN_COLUMN}
      ORDER BY s.upvote_count DESC, s.created_at DESC, s.id DESC
      LIMIT $4
    ) n
    ORDER BY c.i, n.upvote_count DESC, n.created_at DESC, n.id DESC`,
    [businessId, statuses, completedSince, limit],
  );
  return rows;
}

/** Each column's exact total, by status. */
export async function countColumns(
  db: Queryable,
  businessId: string,
  statuses: RoadmapStatus[],
  completedSince: Date,
): Promise<Map<RoadmapStatus, number>> {
  const { rows } = await db.query<{ status: RoadmapStatus; total: number }>(
    /* sql */ `
    SELECT c.status, (
      SELECT count(*)::int
      FROM suggestions s
      WHERE s.business_id = $1 AND ${IN_COLUMN}) AS total
    FROM unnest($2::text[]) AS c (status)`,
    [businessId, statuses, completedSince],
  );
  return new Map(rows.map((row) => [row.status, row.total]));
}
