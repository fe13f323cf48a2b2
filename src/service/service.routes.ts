import { z } from 'zod';
import { serviceUnavailable } from '../errors/http-error.js';
import { media, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { DOCUMENT_PATH } from '../openapi/openapi.routes.js';

export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The service is up and its database answers', examples: [{ status: 'ok' }] });

const common = { tag: 'Service', guard: 'open' } as const;

/** Health and the OpenAPI document: no credential, never rate limited, available while starting. */
export const serviceFeature: Feature = {
  tags: [{ name: 'Service', description: 'Health and this document: no credential, never rate limited' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Health check',
      description: 'A 503 while the database is unreachable or migrations have not run yet.',
      responses: [{ status: 200, description: 'Healthy', json: healthSchema }],
      errors: [503],
      handler: async ({ services }) => {
        if (!services.isReady() || !(await services.db.ping())) {
          throw serviceUnavailable(services.isReady() ? 'Database unavailable' : 'Service is starting, retry shortly');
        }
        return ok({ status: 'ok' });
      },
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: DOCUMENT_PATH,
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description:
        'Generated at start-up from the schemas the routes validate with. The interactive reference is at `/docs`.',
      responses: [
        {
          status: 200,
          description: 'The OpenAPI 3.1 document',
          media: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  openapi: { type: 'string', const: '3.1.0' },
                  info: { type: 'object' },
                  paths: { type: 'object' },
                },
                required: ['openapi', 'info', 'paths'],
              },
              example: {
                openapi: '3.1.0',
                info: { title: 'Feedback API', version: '0.1.0' },
                paths: { '/health': { get: { operationId: 'getHealth', summary: 'Health check' } } },
              },
            },
          },
        },
      ],
      handler: ({ services }) => media('application/json', services.document()),
    }),
  ],
};
