import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { resourceTable } from '../db/resource-table.js';
import { LOCATION_COLUMN_MAP, type LocationRow } from './location.columns.js';

export type { LocationRow };

const COLUMNS = columnList(LOCATION_COLUMN_MAP);

/** The sortable columns, by the name clients use. */
export const LOCATION_SORTS = { created_at: 'created_at', name: 'lower(name)' } as const;
export type LocationSort = keyof typeof LOCATION_SORTS;

export async function insertLocation(
  db: Queryable,
  businessId: string,
  location: { id: string; name: string },
): Promise<LocationRow> {
  const { rows } = await db.query<LocationRow>(
    /* sql */ `
    INSERT INTO locations (id, business_id, name)
    VALUES ($1, $2, $3)
    RETURNING ${COLUMNS}`,
    [location.id, businessId, location.name],
  );
  return rows[0]!;
}

/** One location and a page of them, as every plain resource reads them. */
export const LOCATIONS = resourceTable<LocationRow, LocationSort>({
  table: 'locations',
  columns: COLUMNS,
  resource: 'Location',
  sorts: LOCATION_SORTS,
});

export async function locationExists(db: Queryable, businessId: string, locationId: string): Promise<boolean> {
  return (await LOCATIONS.find(db, businessId, locationId)) !== null;
}

export async function renameLocation(
  db: Queryable,
  businessId: string,
  id: string,
  name: string,
): Promise<LocationRow | null> {
  const { rows } = await db.query<LocationRow>(
    /* sql */ `
    UPDATE locations
    SET name = $3,
      updated_at = now()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id, name],
  );
  return rows[0] ?? null;
}

export interface LocationUses {
  qr_codes: number;
  suggestions: number;
  issues: number;
}

/** What references a location: each count reads only the partial indexes of migration 0005. */
export async function countLocationUses(db: Queryable, businessId: string, id: string): Promise<LocationUses> {
  const { rows } = await db.query<LocationUses>(
    /* sql */ `
    SELECT
      (SELECT count(*) FROM qr_codes WHERE business_id = $1 AND location_id = $2) AS qr_codes,
      (SELECT count(*) FROM suggestions WHERE business_id = $1 AND location_id = $2) AS suggestions,
      (SELECT count(*) FROM issues WHERE business_id = $1 AND location_id = $2) AS issues`,
    [businessId, id],
  );
  return rows[0]!;
}

/** Sets `location_id` to null wherever it names this location; their other fields stay as they are. */
export async function detachLocation(db: Queryable, businessId: string, id: string): Promise<void> {
  for (const table of ['qr_codes', 'suggestions', 'issues'] as const) {
    await db.query(
      /* sql */ `
      UPDATE ${table}
      SET location_id = NULL
      WHERE business_id = $1
        AND location_id = $2`,
      [businessId, id],
    );
  }
}

export async function deleteLocation(db: Queryable, businessId: string, id: string): Promise<void> {
  await db.query(
    /* sql */ `
    DELETE FROM locations
    WHERE business_id = $1
      AND id = $2`,
    [businessId, id],
  );
}

/** The operator's lookup (admin CLI): a location id alone names its business. */
export async function findLocationBusiness(db: Queryable, locationId: string): Promise<string | null> {
  const { rows } = await db.query<{ business_id: string }>(
    /* sql */ `
    SELECT business_id
    FROM locations
    WHERE id = $1`,
    [locationId],
  );
  return rows[0]?.business_id ?? null;
}
