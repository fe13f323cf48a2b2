import type { Feature } from '../openapi/operation.js';
import { analyticsOverviewSchema } from './analytics.responses.js';
import { overviewQuery } from './analytics.routes.js';

export const analyticsDocs: Feature = {
  tags: [{ name: 'Analytics', description: 'The dashboard summary of a business' }],
  operations: [
    {
      method: 'get',
      path: '/businesses/:business_id/analytics/overview',
      operationId: 'getAnalyticsOverview',
      summary: 'Counts, sentiment breakdown and recent activity',
      tag: 'Analytics',
      guard: 'business',
      action: 'read',
      query: overviewQuery,
      responses: [{ status: 200, description: 'The summary', json: analyticsOverviewSchema }],
    },
  ],
};
