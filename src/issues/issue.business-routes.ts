import { Router } from 'express';
import type pg from 'pg';
import { mountCommentRoutes } from '../comments/comment.routes.js';
import { principalOf } from '../http/auth.js';
import { authorize, permit } from '../http/authorize.js';
import { idParam, offsetEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toIssueResponse } from './issue.presenter.js';
import { createIssueBody, listIssuesOffsetQuery, updateIssueBody } from './issue.schemas.js';
import { changeIssue, createIssue, getIssue, listIssues } from './issue.service.js';

/** /businesses/:business_id/issues: create and triage, paged with limit/offset. */
export function issueBusinessRoutes(pool: pg.Pool): Router {
  const router = Router({ mergeParams: true });

  router.get('/issues', async (req, res) => {
    const { businessId } = principalOf(req);
    const { limit, offset, sort, order, assignee_id, ...filter } = parseQuery(listIssuesOffsetQuery, req.query);
    const result = await listIssues(
      pool,
      businessId,
      { ...filter, assigneeId: assignee_id },
      { sort, order, limit, offset },
    );
    res.json(offsetEnvelope(result.rows.map(toIssueResponse), result.total, limit, offset));
  });

  router.get('/issues/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    res.json(toIssueResponse(await getIssue(pool, businessId, idParam(req.params.id, 'Issue'))));
  });

  router.post('/issues', permit('write'), async (req, res) => {
    const issue = await createIssue(pool, principalOf(req), parseBody(createIssueBody, req.body));
    res.status(201).location(`${req.baseUrl}/issues/${issue.id}`).json(toIssueResponse(issue));
  });

  router.patch('/issues/:id', async (req, res) => {
    const principal = principalOf(req);
    const id = idParam(req.params.id, 'Issue');
    const changes = parseBody(updateIssueBody, req.body);
    const onlyStatus = Object.keys(changes).every((field) => field === 'status');
    authorize(principal, onlyStatus ? 'change_status' : 'write');
    res.json(toIssueResponse(await changeIssue(pool, principal, id, changes)));
  });

  mountCommentRoutes(router, pool, 'issue', 'offset');

  return router;
}
