import { Router } from 'express';
import type pg from 'pg';
import { mountCommentRoutes } from '../comments/comment.routes.js';
import { sendCachedList, type ListCache } from '../cache/list-cache.js';
import { principalOf } from '../http/auth.js';
import { idParam, pageEnvelope } from '../http/params.js';
import { parseQuery } from '../http/validation.js';
import { toIssueListItem, toIssueResponse } from './issue.presenter.js';
import { listIssuesQuery } from './issue.schemas.js';
import { getIssue, listIssues } from './issue.service.js';

/** /api/v1/issues: read and comment. Issues are created in the business-scoped family. */
export function issueRoutesV1(pool: pg.Pool, lists: ListCache): Router {
  const router = Router();

  router.get('/issues', async (req, res) => {
    const principal = principalOf(req);
    const { businessId } = principal;
    const query = parseQuery(listIssuesQuery, req.query);
    await sendCachedList(res, lists, principal, `issues ${JSON.stringify(query)}`, async () => {
      const { page, limit, sort, order, ...filter } = query;
      const result = await listIssues(pool, businessId, filter, { sort, order, limit, offset: (page - 1) * limit });
      return pageEnvelope(result.rows.map(toIssueListItem), result.total, page, limit);
    });
  });

  router.get('/issues/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    res.json(toIssueResponse(await getIssue(pool, businessId, idParam(req.params.id, 'Issue'))));
  });

  mountCommentRoutes(router, pool, 'issue', 'page');

  return router;
}
