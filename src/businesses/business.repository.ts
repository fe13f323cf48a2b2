import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import type { Plan } from '../shared/schemas.js';
import { BUSINESS_COLUMN_MAP, type BusinessRow } from './business.columns.js';

export type { BusinessRow };

const COLUMNS = columnList(BUSINESS_COLUMN_MAP);

export async function insertBusiness(
  db: Queryable,
  business: { id: string; name: string; plan: Plan; approvalRequired: boolean },
): Promise<BusinessRow> {
  const { rows } = await db.query<BusinessRow>(
    /* sql */ `
    INSERT INTO businesses (id, name, plan, approval_required)
    VALUES ($1, $2, $3, $4)
    RETURNING ${COLUMNS}`,
    [business.id, business.name, business.plan, business.approvalRequired],
  );
  return rows[0]!;
}

/**
 * With `forUpdate`, the row stays locked until the transaction ends: changes to the business's
 * members take it first, so two of them never both see the last owner they are about to remove.
 */
export async function findBusiness(
  db: Queryable,
  businessId: string,
  { forUpdate = false } = {},
): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM businesses
    WHERE id = $1
    ${forUpdate ? 'FOR UPDATE' : ''}`,
    [businessId],
  );
  return rows[0] ?? null;
}

export async function updateBusiness(
  db: Queryable,
  businessId: string,
  changes: {
    name?: string;
    approvalRequired?: boolean;
    notifyFollowers?: boolean;
    roadmapEnabled?: boolean;
    roadmapStatuses?: string[];
    /** Undefined keeps the colour; null removes it. */
    brandColor?: string | null;
    defaultLanguage?: string;
  },
): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    /* sql */ `
    UPDATE businesses
    SET name = coalesce($2, name),
      approval_required = coalesce($3, approval_required),
      notify_followers = coalesce($4, notify_followers),
      roadmap_enabled = coalesce($5, roadmap_enabled),
      roadmap_statuses = coalesce($6::text[], roadmap_statuses),
      brand_color = CASE WHEN $7::boolean THEN $8 ELSE brand_color END,
      default_language = coalesce($9, default_language),
      updated_at = now()
    WHERE id = $1
    RETURNING ${COLUMNS}`,
    [
      businessId,
      changes.name ?? null,
      changes.approvalRequired ?? null,
      changes.notifyFollowers ?? null,
      changes.roadmapEnabled ?? null,
      changes.roadmapStatuses ?? null,
      changes.brandColor !== undefined,
      changes.brandColor ?? null,
      changes.defaultLanguage ?? null,
    ],
  );
  return rows[0] ?? null;
}

/**
 * Holds the business's row (NO KEY: rows that merely reference the business still go on) until the
 * transaction ends: a limit that counts a business's rows and then adds one (API keys, webhook
 * endpoints) takes it first, so two creations cannot both count the last free place.
 */
export async function lockBusinessForLimit(db: Queryable, businessId: string): Promise<void> {
  await db.query('SELECT id FROM businesses WHERE id = $1 FOR NO KEY UPDATE', [businessId]);
}
