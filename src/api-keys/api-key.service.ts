import type pg from 'pg';
import { lockBusinessForLimit } from '../businesses/business.repository.js';
import { withTransaction } from '../db/database.js';
import { badRequest, HttpError, notFound } from '../errors/http-error.js';
import { newId } from '../shared/ids.js';
import type { Scope } from '../shared/schemas.js';
import { findFirstOwner, findMember } from '../users/user.repository.js';
import { recordActivity } from '../outbox/outbox.service.js';
import { API_KEYS, countActiveApiKeys, insertApiKey, revokeApiKey, type ApiKeyRow } from './api-key.repository.js';
import type { PageRequest } from '../db/paging.js';
import { generateApiKey } from '../auth/key-format.js';

export interface NewApiKey {
  name: string;
  scope: Scope;
  /** The member the key acts for; defaults to the business's first owner. */
  createdBy?: string;
}

/** A business's keys, revoked ones included, newest first unless asked otherwise. */
export async function listApiKeys(
  pool: pg.Pool,
  businessId: string,
  page: PageRequest<'created_at'>,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  return API_KEYS.page(pool, businessId, page);
}

/**
 * Creates a key and returns its full value: the only moment it exists outside the client. A business
 * has at most `maxActive` keys that are not revoked (API_KEYS_MAX_PER_BUSINESS): each key has a request
 * budget of its own, so unlimited keys would be an unlimited budget.
 */
export async function createApiKey(
  pool: pg.Pool,
  businessId: string,
  input: NewApiKey,
  rules: { maxActive: number },
): Promise<{ row: ApiKeyRow; key: string }> {
  return withTransaction(pool, async (tx) => {
    await lockBusinessForLimit(tx, businessId);
    if ((await countActiveApiKeys(tx, businessId)) >= rules.maxActive) {
      throw new HttpError(
        409,
        `This business has ${rules.maxActive} active API keys, the most it may have: ` +
          'revoke one it no longer uses, or have the operator raise API_KEYS_MAX_PER_BUSINESS',
        'API_KEY_LIMIT_REACHED',
      );
    }
    const creator = input.createdBy
      ? await findMember(tx, businessId, input.createdBy)
      : await findFirstOwner(tx, businessId);
    if (!creator) throw badRequest(input.createdBy ? 'user is not a member of this business' : 'business has no owner');
    const generated = generateApiKey();
    const row = await insertApiKey(tx, businessId, {
      id: newId(),
      name: input.name,
      scope: input.scope,
      digest: generated.digest,
      prefix: generated.prefix,
      createdBy: creator.id,
    });
    await recordActivity(
      tx,
      { businessId, userId: creator.id },
      {
        type: 'api_key.created',
        entityType: 'api_key',
        entityId: row.id,
        data: { name: row.name, scope: row.scope },
      },
    );
    return { row, key: generated.key };
  });
}

/** Revocation is permanent and takes effect on the next request: keys are never cached. */
export async function revokeKey(
  pool: pg.Pool,
  businessId: string,
  keyId: string,
  actorUserId: string | null,
): Promise<ApiKeyRow> {
  return withTransaction(pool, async (tx) => {
    const row = await revokeApiKey(tx, businessId, keyId);
    if (!row) throw notFound('API key');
    await recordActivity(
      tx,
      { businessId, userId: actorUserId },
      {
        type: 'api_key.revoked',
        entityType: 'api_key',
        entityId: row.id,
      },
    );
    return row;
  });
}
