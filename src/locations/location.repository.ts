import type { Queryable } from '../db/database.js';

export interface LocationRow {
  id: string;
  name: string;
  created_at: Date;
}

export async function insertLocation(
  db: Queryable,
  businessId: string,
  location: { id: string; name: string },
): Promise<LocationRow> {
  const { rows } = await db.query<LocationRow>(
    /* sql */ `
    INSERT INTO locations (id, business_id, name)
    VALUES ($1, $2, $3)
    RETURNING id, name, created_at`,
    [location.id, businessId, location.name],
  );
  return rows[0]!;
}

export async function locationExists(db: Queryable, businessId: string, locationId: string): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT 1
    FROM locations
    WHERE business_id = $1
      AND id = $2`,
    [businessId, locationId],
  );
  return rows.length > 0;
}
