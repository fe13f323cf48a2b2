import type pg from 'pg';
import { withTransaction } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { newId } from '../shared/ids.js';
import type { Scope } from '../shared/schemas.js';
import { findFirstOwner, findMember } from '../users/user.repository.js';
import { insertActivity } from '../activity/activity.repository.js';
import { insertApiKey, revokeApiKey, type ApiKeyRow } from './api-key.repository.js';
import { generateApiKey } from './key-format.js';

export interface NewApiKey {
  name: string;
  scope: Scope;
  /** The member the key acts for; defaults to the business's first owner. */
  createdBy?: string;
}

/** Creates a key and returns its full value: the only moment it exists outside the client. */
export async function createApiKey(
  pool: pg.Pool,
  businessId: string,
  input: NewApiKey,
): Promise<{ row: ApiKeyRow; key: string }> {
  return withTransaction(pool, async (tx) => {
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
    await insertActivity(tx, businessId, {
      type: 'api_key.created',
      entityType: 'api_key',
      entityId: row.id,
      actorUserId: creator.id,
      actorApiKeyId: null,
      data: { name: row.name, scope: row.scope },
    });
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
    await insertActivity(tx, businessId, {
      type: 'api_key.revoked',
      entityType: 'api_key',
      entityId: row.id,
      actorUserId,
      actorApiKeyId: null,
    });
    return row;
  });
}
