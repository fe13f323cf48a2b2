import { media } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { DOCUMENT_PATH } from './openapi.routes.js';

/**
 * The OpenAPI document itself, as an operation of the document: no credential, never rate limited,
 * available while starting. Its tag, `Service`, is declared with the health route.
 */
export const documentFeature: Feature = {
  tags: [],
  routes: [
    defineRoute({
      tag: 'Service',
      guard: 'open',
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
