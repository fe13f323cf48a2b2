import { Router } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { principalOf } from '../http/auth.js';
import { parseQuery } from '../http/validation.js';
import { analyticsOverview } from './analytics.service.js';

export const overviewQuery = z.strictObject({});

/** /businesses/:business_id/analytics/overview: the dashboard's summary. */
export function analyticsRoutes(pool: pg.Pool): Router {
  const router = Router({ mergeParams: true });
  router.get('/analytics/overview', async (req, res) => {
    parseQuery(overviewQuery, req.query);
    res.json(await analyticsOverview(pool, principalOf(req).businessId));
  });
  return router;
}
