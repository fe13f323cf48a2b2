import type { Feature } from '../openapi/operation.js';
import { apiKeyOffsetPageSchema, apiKeySchema, createdApiKeySchema } from './api-key.responses.js';
import { createApiKeyBody, listApiKeysQuery } from './api-key.routes.js';

const common = { tag: 'API keys', guard: 'business' as const, action: 'manage_keys' as const };

export const apiKeyDocs: Feature = {
  tags: [{ name: 'API keys', description: 'Settings > Integrations: the keys of a business, for owners and admins' }],
  operations: [
    {
      ...common,
      method: 'get',
      path: '/businesses/:business_id/api-keys',
      operationId: 'listApiKeys',
      summary: 'List API keys',
      query: listApiKeysQuery,
      responses: [
        { status: 200, description: 'A slice of the keys, revoked ones included', json: apiKeyOffsetPageSchema },
      ],
    },
    {
      ...common,
      method: 'post',
      path: '/businesses/:business_id/api-keys',
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description: 'The full key is in this response only; afterwards only its prefix is shown.',
      body: createApiKeyBody,
      responses: [{ status: 201, description: 'The new key, in full', json: createdApiKeySchema }],
    },
    {
      ...common,
      method: 'delete',
      path: '/businesses/:business_id/api-keys/:id',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: 'Instant and permanent: the next request with the key is a 401.',
      responses: [{ status: 200, description: 'The revoked key', json: apiKeySchema }],
    },
  ],
};
