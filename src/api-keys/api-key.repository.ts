import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { resourceTable } from '../db/resource-table.js';
import type { Scope } from '../shared/schemas.js';
import { API_KEY_COLUMN_MAP, type ApiKeyRow } from './api-key.columns.js';

export type { ApiKeyRow };

const COLUMNS = columnList(API_KEY_COLUMN_MAP, 'k');

export async function insertApiKey(
  db: Queryable,
  businessId: string,
  key: { id: string; name: string; scope: Scope; digest: Buffer; prefix: string; createdBy: string },
): Promise<ApiKeyRow> {
  const { rows } = await db.query<ApiKeyRow>(
    /* sql */ `
    INSERT INTO api_keys AS k (id, business_id, name, scope, digest, prefix, created_by)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    RETURNING ${COLUMNS}`,
    [key.id, businessId, key.name, key.scope, key.digest, key.prefix, key.createdBy],
  );
  return rows[0]!;
}

/** A page of keys, as every plain resource reads them (newest first by default, in the schema). */
export const API_KEYS = resourceTable<ApiKeyRow, 'created_at'>({
  table: 'api_keys',
  columns: columnList(API_KEY_COLUMN_MAP),
  resource: 'API key',
  sorts: { created_at: 'created_at' },
});

export async function countActiveApiKeys(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
      SELECT count(*) AS total
      FROM api_keys
      WHERE business_id = $1
        AND revoked_at IS NULL
    `,
    [businessId],
  );
  return rows[0]!.total;
}

/** Revokes once: a second revocation keeps the original time. */
export async function revokeApiKey(db: Queryable, businessId: string, keyId: string): Promise<ApiKeyRow | null> {
  const { rows } = await db.query<ApiKeyRow>(
    /* sql */ `
    UPDATE api_keys AS k
    SET revoked_at = COALESCE(k.revoked_at, now())
    WHERE k.business_id = $1
      AND k.id = $2
    RETURNING ${COLUMNS}`,
    [businessId, keyId],
  );
  return rows[0] ?? null;
}

export async function findApiKeyBusiness(db: Queryable, keyId: string): Promise<string | null> {
  const { rows } = await db.query<{ business_id: string }>(
    /* sql */ `
    SELECT business_id
    FROM api_keys
    WHERE id = $1`,
    [keyId],
  );
  return rows[0]?.business_id ?? null;
}
