import { ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toAnalyticsOverviewResponse } from './analytics.presenter.js';
import { analyticsOverviewSchema } from './analytics.responses.js';
import { overviewQuery } from './analytics.schemas.js';
import { analyticsOverview } from './analytics.service.js';

/** /businesses/:business_id/analytics/overview: the dashboard's summary. */
export const analyticsFeature: Feature = {
  tags: [{ name: 'Analytics', description: 'The dashboard summary of a business' }],
  routes: [
    defineRoute({
      method: 'get',
      path: '/businesses/:business_id/analytics/overview',
      operationId: 'getAnalyticsOverview',
      summary: 'Counts, sentiment breakdown and recent activity',
      tag: 'Analytics',
      guard: 'business',
      action: 'read',
      query: overviewQuery,
      responses: [{ status: 200, description: 'The summary', json: analyticsOverviewSchema }],
      handler: async ({ principal, services }) => {
        const overview = await services.reads.read(principal, 'analytics', (pool) =>
          analyticsOverview(pool, principal.businessId),
        );
        return ok(toAnalyticsOverviewResponse(overview));
      },
    }),
  ],
};
