import { cachedList } from '../http/cached-list.js';
import { offsetEnvelope, pageEnvelope } from '../http/params.js';
import { created } from '../http/reply.js';
import { defineRoute, type Feature, type Route } from '../http/route.js';
import { toCommentResponse } from './comment.presenter.js';
import type { EntityType } from './comment.repository.js';
import { commentOffsetPageSchema, commentPageSchema, commentSchema } from './comment.responses.js';
import { createCommentBody, listCommentsOffsetQuery, listCommentsQuery } from './comment.schemas.js';
import { addComment, listComments } from './comment.service.js';

const LABELS: Record<EntityType, string> = { suggestion: 'Suggestion', issue: 'Issue' };

/**
 * GET and POST `/<entities>/:id/comments`, for suggestions and issues alike, in either family:
 * the versioned one pages with page/limit, the business-scoped one with limit/offset.
 */
function commentRoutes(entityType: EntityType, family: 'v1' | 'business'): Route[] {
  const v1 = family === 'v1';
  // A 404 for an unknown entity is thrown before anything is cached; the entity's own changes move
  // the change number like its comments' do.
  const cacheKey = (prefix: string, id: string, query: unknown) =>
    `${prefix} ${entityType} ${id} comments ${JSON.stringify(query)}`;
  const Entity = LABELS[entityType];
  const tag = `${v1 ? '' : 'Dashboard '}${entityType}s`;
  const article = entityType === 'issue' ? 'an' : 'a';
  const suffix = v1 ? '' : ' (dashboard)';
  const common = {
    path: `${v1 ? '/api/v1' : '/businesses/:business_id'}/${entityType}s/:id/comments`,
    resource: Entity,
    tag: tag.charAt(0).toUpperCase() + tag.slice(1),
    params: { id: `The ${entityType}; a malformed, unknown or other business's id is a 404` },
  };
  const post = defineRoute({
    ...common,
    guard: v1 ? 'api_key' : 'business',
    method: 'post',
    operationId: `add${v1 ? '' : 'Business'}${Entity}Comment`,
    summary: `Comment on ${article} ${entityType}${suffix}`,
    description: 'Through an API key, the stored text is prefixed `[via API: <key name>] `.',
    action: 'comment',
    body: createCommentBody,
    responses: [{ status: 201, description: 'The new comment', json: commentSchema }],
    handler: async ({ principal, body, id, db }) =>
      created(toCommentResponse(await addComment(db, principal, entityType, id, body.content))),
  });
  const list = {
    ...common,
    method: 'get',
    operationId: `list${v1 ? '' : 'Business'}${Entity}Comments`,
    summary: `List the comments on ${article} ${entityType}${suffix}`,
    description: 'Oldest first by default: a conversation reads forwards.',
    action: 'read',
  } as const;
  const get = v1
    ? defineRoute({
        ...list,
        guard: 'api_key',
        query: listCommentsQuery,
        responses: [{ status: 200, description: 'The comments', json: commentPageSchema }],
        handler: ({ principal, query, services, id, db }) =>
          cachedList(services.lists, principal, cacheKey('v1', id, query), async () => {
            const { page, limit, sort, order } = query;
            const window = { sort, order, limit, offset: (page - 1) * limit };
            const result = await listComments(db, principal.businessId, entityType, id, window);
            return pageEnvelope(result.rows.map(toCommentResponse), result.total, page, limit);
          }),
      })
    : defineRoute({
        ...list,
        guard: 'business',
        query: listCommentsOffsetQuery,
        responses: [{ status: 200, description: 'The comments', json: commentOffsetPageSchema }],
        handler: ({ principal, query, services, id, db }) =>
          cachedList(services.lists, principal, cacheKey('business', id, query), async () => {
            const { limit, offset, sort, order } = query;
            const window = { sort, order, limit, offset };
            const result = await listComments(db, principal.businessId, entityType, id, window);
            return offsetEnvelope(result.rows.map(toCommentResponse), result.total, limit, offset);
          }),
      });
  return [get, post];
}

/** Comments have no tags of their own: they are listed with the entity they are on. */
export const commentFeature: Feature = {
  tags: [],
  routes: [
    ...commentRoutes('suggestion', 'v1'),
    ...commentRoutes('issue', 'v1'),
    ...commentRoutes('suggestion', 'business'),
    ...commentRoutes('issue', 'business'),
  ],
};
