import { Router } from 'express';
import type pg from 'pg';
import { mountCommentRoutes } from '../comments/comment.routes.js';
import { principalOf } from '../http/auth.js';
import { idParam, pageEnvelope } from '../http/params.js';
import { parseQuery } from '../http/validation.js';
import { toIssueListItem, toIssueResponse } from './issue.presenter.js';
import { listIssuesQuery } from './issue.schemas.js';
import { getIssue, listIssues } from './issue.service.js';

/** /api/v1/issues: read and comment. Issues are created in the business-scoped family. */
export function issueRoutesV1(pool: pg.Pool): Router {
  const router = Router();

  router.get('/issues', async (req, res) => {
    const { businessId } = principalOf(req);
    const { page, limit, sort, order, ...filter } = parseQuery(listIssuesQuery, req.query);
    const result = await listIssues(pool, businessId, filter, { sort, order, limit, offset: (page - 1) * limit });
    res.json(pageEnvelope(result.rows.map(toIssueListItem), result.total, page, limit));
  });

  router.get('/issues/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    res.json(toIssueResponse(await getIssue(pool, businessId, idParam(req.params.id, 'Issue'))));
  });

  mountCommentRoutes(router, pool, 'issue', 'page');

  return router;
}
