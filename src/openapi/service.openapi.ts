import { z } from 'zod';
import type { Feature } from './operation.js';

export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The service is up and its database answers' });

export const serviceDocs: Feature = {
  tags: [{ name: 'Service', description: 'Health and this document: no credential, never rate limited' }],
  operations: [
    {
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Health check',
      description: 'A 503 while the database is unreachable or migrations have not run yet.',
      tag: 'Service',
      guard: 'open',
      responses: [{ status: 200, description: 'Healthy', json: healthSchema }],
      errors: [503],
    },
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description:
        'Generated at start-up from the schemas the routes validate with. The interactive reference is at `/docs`.',
      tag: 'Service',
      guard: 'open',
      responses: [
        {
          status: 200,
          description: 'The OpenAPI 3.1 document',
          media: {
            'application/json': {
              type: 'object',
              properties: { openapi: { type: 'string', const: '3.1.0' }, paths: { type: 'object' } },
              required: ['openapi', 'paths'],
            },
          },
        },
      ],
    },
  ],
};
