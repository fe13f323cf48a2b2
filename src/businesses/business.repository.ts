import type { Queryable } from '../db/database.js';
import type { Plan } from '../shared/schemas.js';

export interface BusinessRow {
  id: string;
  name: string;
  plan: Plan;
  approval_required: boolean;
  created_at: Date;
}

const COLUMNS = 'id, name, plan, approval_required, created_at';

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

export async function findBusiness(db: Queryable, businessId: string): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM businesses
    WHERE id = $1`,
    [businessId],
  );
  return rows[0] ?? null;
}
