import type { Queryable } from '../db/database.js';
import { changeNumberSql } from '../cache/change.repository.js';
import { orderAndPage, type PageRequest } from '../db/paging.js';
import type { Plan, Scope } from '../shared/schemas.js';

export interface ApiKeyRow {
  id: string;
  business_id: string;
  name: string;
  scope: Scope;
  prefix: string;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * What authentication needs: the key, the plan of the business it belongs to, and that business's
 * change number, read in the same round trip for the cached lists of /api/v1 (docs/caching.md).
 */
export interface KeyCredentialRow extends ApiKeyRow {
  plan: Plan;
  change_number: number;
}

const COLUMNS =
  'k.id, k.business_id, k.name, k.scope, k.prefix, k.created_by, k.created_at, k.last_used_at, k.revoked_at';

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

/** The one lookup that is not by business: the credential is what tells us the business. */
export async function findKeyByDigest(db: Queryable, digest: Buffer): Promise<KeyCredentialRow | null> {
  const { rows } = await db.query<KeyCredentialRow>(
    /* sql */ `
    SELECT ${COLUMNS}, b.plan, ${changeNumberSql('k.business_id')} AS change_number
    FROM api_keys k
    JOIN businesses b ON b.id = k.business_id
    WHERE k.digest = $1`,
    [digest],
  );
  return rows[0] ?? null;
}

export async function findApiKeys(
  db: Queryable,
  businessId: string,
  page: PageRequest<'created_at'>,
): Promise<ApiKeyRow[]> {
  const params: unknown[] = [businessId];
  const { rows } = await db.query<ApiKeyRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM api_keys k
    WHERE k.business_id = $1
    ${orderAndPage('k.created_at', page, params, 'k.id')}`,
    params,
  );
  return rows;
}

export async function countApiKeys(db: Queryable, businessId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>('SELECT count(*) AS total FROM api_keys WHERE business_id = $1', [
    businessId,
  ]);
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

/** At most one write a minute per key, whatever the request rate. */
export async function touchApiKey(db: Queryable, businessId: string, keyId: string): Promise<void> {
  await db.query(
    /* sql */ `
    UPDATE api_keys
    SET last_used_at = now()
    WHERE business_id = $1
      AND id = $2
      AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [businessId, keyId],
  );
}
