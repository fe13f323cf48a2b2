import type { Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import { resourceTable } from '../db/resource-table.js';
import type { Condition } from '../db/where.js';

export interface QrCodeRow {
  id: string;
  code: string;
  label: string;
  location_id: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  scans_last_30_days: number;
}

/** Page opens in the last 30 UTC days, today included, from the batched counts (src/public-page). */
const SCANS = /* sql */ `(SELECT COALESCE(sum(s.scans), 0)
    FROM qr_code_scans s
    WHERE s.qr_code_id = qr_codes.id
      AND s.day > (now() AT TIME ZONE 'UTC')::date - 30) AS scans_last_30_days`;
const COLUMNS = `id, code, label, location_id, active, created_at, updated_at, ${SCANS}`;

const conditions = (filter: { active?: boolean }): Condition[] => [['active = ?', filter.active]];

/** One code and a page of them, as every plain resource reads them. */
export const QR_CODES = resourceTable<QrCodeRow, 'created_at'>({
  table: 'qr_codes',
  columns: COLUMNS,
  resource: 'QR code',
  sorts: { created_at: 'created_at' },
});

export const findQrCodePage = (
  db: Queryable,
  businessId: string,
  filter: { active?: boolean },
  page: PageRequest<'created_at'>,
) => QR_CODES.page(db, businessId, page, conditions(filter));

export async function insertQrCode(
  db: Queryable,
  businessId: string,
  qr: { id: string; code: string; label: string; locationId: string | null; active: boolean },
): Promise<QrCodeRow> {
  const { rows } = await db.query<QrCodeRow>(
    /* sql */ `
    INSERT INTO qr_codes (id, business_id, code, label, location_id, active)
    VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING ${COLUMNS}`,
    [qr.id, businessId, qr.code, qr.label, qr.locationId, qr.active],
  );
  return rows[0]!;
}

export async function updateQrCode(
  db: Queryable,
  businessId: string,
  id: string,
  changes: { label?: string; active?: boolean },
): Promise<QrCodeRow | null> {
  const { rows } = await db.query<QrCodeRow>(
    /* sql */ `
    UPDATE qr_codes
    SET label = COALESCE($3, label),
        active = COALESCE($4, active),
        updated_at = clock_timestamp()
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id, changes.label ?? null, changes.active ?? null],
  );
  return rows[0] ?? null;
}

/** Answers the deleted code, or null when there was none. */
export async function deleteQrCode(db: Queryable, businessId: string, id: string): Promise<QrCodeRow | null> {
  const { rows } = await db.query<QrCodeRow>(
    /* sql */ `
    DELETE FROM qr_codes
    WHERE business_id = $1
      AND id = $2
    RETURNING ${COLUMNS}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}
