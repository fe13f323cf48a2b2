import { cachedList } from '../http/cached-list.js';
import { defineFamilies, type Family } from '../http/families.js';
import { envelopeOf, listRequest } from '../http/params.js';
import { created } from '../http/reply.js';
import type { Feature, Route } from '../http/route.js';
import { toCommentResponse } from './comment.presenter.js';
import type { EntityType } from './comment.repository.js';
import { commentOffsetPageSchema, commentPageSchema, commentSchema } from './comment.responses.js';
import { createCommentBody, listCommentsOffsetQuery, listCommentsQuery } from './comment.schemas.js';
import { addComment, listComments } from './comment.service.js';

const LABELS: Record<EntityType, string> = { suggestion: 'Suggestion', issue: 'Issue' };

/**
 * GET and POST `/<entities>/:id/comments`, for suggestions and issues alike, in both families: the
 * versioned one pages with page/limit, the business-scoped one with limit/offset.
 */
function commentRoutes(entityType: EntityType): Record<Family, Route>[] {
  const Entity = LABELS[entityType];
  const article = entityType === 'issue' ? 'an' : 'a';
  const common = {
    path: `/${entityType}s/:id/comments`,
    resource: Entity,
    params: { id: `The ${entityType}; a malformed, unknown or other business's id is a 404` },
  };
  const v1 = { tag: `${Entity}s` };
  const business = { tag: `Dashboard ${entityType}s` };
  const list = defineFamilies({
    ...common,
    method: 'get',
    description: 'Oldest first by default: a conversation reads forwards.',
    action: 'read',
    v1: {
      ...v1,
      operationId: `list${Entity}Comments`,
      summary: `List the comments on ${article} ${entityType}`,
      query: listCommentsQuery,
      responses: [{ status: 200, description: 'The comments', json: commentPageSchema }],
    },
    business: {
      ...business,
      operationId: `listBusiness${Entity}Comments`,
      summary: `List the comments on ${article} ${entityType} (dashboard)`,
      query: listCommentsOffsetQuery,
      responses: [{ status: 200, description: 'The comments', json: commentOffsetPageSchema }],
    },
    // A 404 for an unknown entity is thrown before anything is cached; the entity's own changes move
    // the change number like its comments' do.
    handler: ({ principal, query, services, id, db, family }) =>
      cachedList(
        services.lists,
        principal,
        `${family} ${entityType} ${id} comments ${JSON.stringify(query)}`,
        async () => {
          const result = await listComments(db, principal.businessId, entityType, id, listRequest(query).page);
          return envelopeOf(query, result.rows.map(toCommentResponse), result.total);
        },
      ),
  });
  const add = defineFamilies({
    ...common,
    method: 'post',
    description: 'Through an API key, the stored text is prefixed `[via API: <key name>] `.',
    action: 'comment',
    responses: [{ status: 201, description: 'The new comment', json: commentSchema }],
    v1: {
      ...v1,
      operationId: `add${Entity}Comment`,
      summary: `Comment on ${article} ${entityType}`,
      body: createCommentBody,
    },
    business: {
      ...business,
      operationId: `addBusiness${Entity}Comment`,
      summary: `Comment on ${article} ${entityType} (dashboard)`,
      body: createCommentBody,
    },
    handler: async ({ principal, body, id, db }) =>
      created(toCommentResponse(await addComment(db, principal, entityType, id, body.content))),
  });
  return [list, add];
}

const routes = [...commentRoutes('suggestion'), ...commentRoutes('issue')];

/** Comments have no tags of their own: they are listed with the entity they are on. */
export const commentFeature: Feature = {
  tags: [],
  routes: [...routes.map((route) => route.v1), ...routes.map((route) => route.business)],
};
