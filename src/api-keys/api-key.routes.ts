import { offsetEnvelope } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toApiKeyResponse, toCreatedApiKeyResponse } from './api-key.presenter.js';
import { apiKeyOffsetPageSchema, apiKeySchema, createdApiKeySchema } from './api-key.responses.js';
import { createApiKeyBody, listApiKeysQuery } from './api-key.schemas.js';
import { createApiKey, listApiKeys, revokeKey } from './api-key.service.js';

const common = { tag: 'API keys', guard: 'business', action: 'manage_keys' } as const;

/** Settings > Integrations (spec 5.6): dashboard owners and admins only, never an API key. */
export const apiKeyFeature: Feature = {
  tags: [{ name: 'API keys', description: 'Settings > Integrations: the keys of a business, for owners and admins' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/api-keys',
      operationId: 'listApiKeys',
      summary: 'List API keys',
      query: listApiKeysQuery,
      responses: [
        { status: 200, description: 'A slice of the keys, revoked ones included', json: apiKeyOffsetPageSchema },
      ],
      handler: async ({ principal, query: { limit, offset, order }, db }) => {
        const page = { sort: 'created_at', order, limit, offset } as const;
        const result = await listApiKeys(db, principal.businessId, page);
        return ok(offsetEnvelope(result.rows.map(toApiKeyResponse), result.total, limit, offset));
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/businesses/:business_id/api-keys',
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description:
        'The full key is in this response only; afterwards only its prefix is shown. A business has at most ' +
        'API_KEYS_MAX_PER_BUSINESS keys that are not revoked (100 by default): past it a 409.',
      body: createApiKeyBody,
      errors: [409],
      // Its answer is the only place the full key exists: it is never stored, not even for a retry.
      idempotency: false,
      responses: [{ status: 201, description: 'The new key, in full', json: createdApiKeySchema }],
      handler: async ({ principal, body, db, services }) => {
        const input = { ...body, createdBy: principal.userId };
        const { row, key } = await createApiKey(db, principal.businessId, input, {
          maxActive: services.apiKeysMaxPerBusiness,
        });
        return created(toCreatedApiKeyResponse(row, key));
      },
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/businesses/:business_id/api-keys/:id',
      resource: 'API key',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: 'Instant and permanent: the next request with the key is a 401.',
      responses: [{ status: 200, description: 'The revoked key', json: apiKeySchema }],
      handler: async ({ principal, id, db }) =>
        ok(toApiKeyResponse(await revokeKey(db, principal.businessId, id, principal.userId))),
    }),
  ],
};
