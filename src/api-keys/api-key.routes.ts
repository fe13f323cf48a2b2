import { resourceFeature } from '../http/resource-routes.js';
import { toApiKeyResponse } from './api-key.presenter.js';
import { apiKeyOffsetPageSchema, apiKeySchema, createdApiKeySchema } from './api-key.responses.js';
import { createApiKeyBody, listApiKeysQuery } from './api-key.schemas.js';
import { createApiKey, listApiKeys, revokeKey } from './api-key.service.js';

/** Settings > Integrations (spec 5.6): dashboard owners and admins only, never an API key. */
export const apiKeyFeature = resourceFeature({
  path: '/api-keys',
  tag: { name: 'API keys', description: 'Settings > Integrations: the keys of a business, for owners and admins' },
  resource: 'API key',
  noun: 'key',
  plural: 'keys',
  access: { read: 'manage_keys', write: 'manage_keys' },
  schema: apiKeySchema,
  present: toApiKeyResponse,
  list: {
    operationId: 'listApiKeys',
    summary: 'List API keys',
    query: listApiKeysQuery,
    json: apiKeyOffsetPageSchema,
    answer: 'A slice of the keys, revoked ones included',
    run: ({ principal, query: { limit, offset, order }, db }) =>
      listApiKeys(db, principal.businessId, { sort: 'created_at', order, limit, offset }),
  },
  create: {
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'The full key is in this response only; afterwards only its prefix is shown. A business has at most ' +
      'API_KEYS_MAX_PER_BUSINESS keys that are not revoked (100 by default): past it a 409.',
    body: createApiKeyBody,
    errors: [409],
    // Its answer is the only place the full key exists: it is never stored, not even for a retry.
    idempotency: false,
    location: false,
    answer: 'The new key, in full',
    run: async ({ principal, body, db, services }) => {
      const { row, key } = await createApiKey(
        db,
        principal.businessId,
        { ...body, createdBy: principal.userId },
        { maxActive: services.apiKeysMaxPerBusiness },
      );
      return { ...row, key };
    },
    reveal: { json: createdApiKeySchema, fields: ({ key }) => ({ key }) },
  },
  revoke: {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Instant and permanent: the next request with the key is a 401.',
    run: ({ principal, id, db }) => revokeKey(db, principal.businessId, id, principal.userId),
  },
});
