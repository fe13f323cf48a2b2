import { z } from 'zod';
import { serviceUnavailable } from '../errors/http-error.js';
import { ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';

export const healthSchema = z
  .object({
    status: z.literal('ok'),
    primary: z
      .string()
      .optional()
      .meta({
        description: 'host:port of the primary in use, when DATABASE_URL names several hosts (a failover formation)',
        examples: ['db2.internal:5432'],
      }),
  })
  .meta({ id: 'Health', description: 'The service is up and its database answers', examples: [{ status: 'ok' }] });

/** The tag `Service` is shared with the document's own route (src/openapi/document.routes.ts). */
const common = { tag: 'Service', guard: 'open' } as const;

/** Health: no credential, never rate limited, available while starting. */
export const healthFeature: Feature = {
  tags: [{ name: 'Service', description: 'Health and this document: no credential, never rate limited' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Health check',
      description:
        'A 503 while the database is unreachable (with several hosts: while none is the primary) or migrations ' +
        'have not run yet.',
      responses: [{ status: 200, description: 'Healthy', json: healthSchema }],
      errors: [503],
      handler: async ({ services }) => {
        if (!services.isReady() || !(await services.db.ping())) {
          throw serviceUnavailable(services.isReady() ? 'Database unavailable' : 'Service is starting, retry shortly');
        }
        const primary = services.db.host?.();
        return ok({ status: 'ok', ...(primary ? { primary } : {}) });
      },
    }),
  ],
};
