import type { Router } from 'express';
import type pg from 'pg';
import { principalOf, requireScope } from '../http/auth.js';
import { idParam, pageEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toCommentResponse } from './comment.presenter.js';
import type { EntityType } from './comment.repository.js';
import { createCommentBody, listCommentsQuery } from './comment.schemas.js';
import { addComment, listComments } from './comment.service.js';

const NAMES: Record<EntityType, { path: string; label: string }> = {
  suggestion: { path: 'suggestions', label: 'Suggestion' },
  issue: { path: 'issues', label: 'Issue' },
};

/** GET and POST `/<entities>/:id/comments` of the versioned family, for suggestions and issues alike. */
export function mountCommentRoutesV1(router: Router, pool: pg.Pool, entityType: EntityType): void {
  const { path, label } = NAMES[entityType];

  router.get(`/${path}/:id/comments`, async (req, res) => {
    const { businessId } = principalOf(req);
    const id = idParam(req.params.id, label);
    const { page, limit, sort, order } = parseQuery(listCommentsQuery, req.query);
    const result = await listComments(pool, businessId, entityType, id, {
      sort,
      order,
      limit,
      offset: (page - 1) * limit,
    });
    res.json(pageEnvelope(result.rows.map(toCommentResponse), result.total, page, limit));
  });

  router.post(`/${path}/:id/comments`, requireScope('write'), async (req, res) => {
    const id = idParam(req.params.id, label);
    const { content } = parseBody(createCommentBody, req.body);
    const comment = await addComment(pool, principalOf(req), entityType, id, content);
    res.status(201).json(toCommentResponse(comment));
  });
}
