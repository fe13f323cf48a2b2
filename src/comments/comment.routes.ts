import type { Router } from 'express';
import type pg from 'pg';
import { principalOf } from '../http/auth.js';
import { permit } from '../http/authorize.js';
import { idParam, offsetEnvelope, pageEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toCommentResponse } from './comment.presenter.js';
import type { EntityType } from './comment.repository.js';
import { createCommentBody, listCommentsOffsetQuery, listCommentsQuery } from './comment.schemas.js';
import { addComment, listComments } from './comment.service.js';

const NAMES: Record<EntityType, { path: string; label: string }> = {
  suggestion: { path: 'suggestions', label: 'Suggestion' },
  issue: { path: 'issues', label: 'Issue' },
};

/**
 * GET and POST `/<entities>/:id/comments`, for suggestions and issues alike, in either family:
 * the versioned one pages with page/limit, the business-scoped one with limit/offset.
 */
export function mountCommentRoutes(router: Router, pool: pg.Pool, entityType: EntityType, paging: 'page' | 'offset') {
  const { path, label } = NAMES[entityType];

  router.get(`/${path}/:id/comments`, async (req, res) => {
    const { businessId } = principalOf(req);
    const id = idParam(req.params.id, label);
    if (paging === 'page') {
      const { page, limit, sort, order } = parseQuery(listCommentsQuery, req.query);
      const offset = (page - 1) * limit;
      const result = await listComments(pool, businessId, entityType, id, { sort, order, limit, offset });
      res.json(pageEnvelope(result.rows.map(toCommentResponse), result.total, page, limit));
    } else {
      const { limit, offset, sort, order } = parseQuery(listCommentsOffsetQuery, req.query);
      const result = await listComments(pool, businessId, entityType, id, { sort, order, limit, offset });
      res.json(offsetEnvelope(result.rows.map(toCommentResponse), result.total, limit, offset));
    }
  });

  router.post(`/${path}/:id/comments`, permit('comment'), async (req, res) => {
    const id = idParam(req.params.id, label);
    const { content } = parseBody(createCommentBody, req.body);
    const comment = await addComment(pool, principalOf(req), entityType, id, content);
    res.status(201).json(toCommentResponse(comment));
  });
}
