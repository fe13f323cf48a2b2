import type { Feature, OperationSpec } from '../openapi/operation.js';
import { commentOffsetPageSchema, commentPageSchema, commentSchema } from './comment.responses.js';
import { createCommentBody, listCommentsOffsetQuery, listCommentsQuery } from './comment.schemas.js';

/** The comment routes mountCommentRoutes adds to both entities in both families. */
function commentOperations(entity: 'suggestion' | 'issue', family: 'v1' | 'business'): OperationSpec[] {
  const v1 = family === 'v1';
  const Entity = entity === 'suggestion' ? 'Suggestion' : 'Issue';
  const base = `${v1 ? '/api/v1' : '/businesses/:business_id'}/${entity}s/:id/comments`;
  const tag = `${v1 ? '' : 'Dashboard '}${entity}s`;
  const common = {
    path: base,
    tag: tag.charAt(0).toUpperCase() + tag.slice(1),
    guard: v1 ? ('api_key' as const) : ('business' as const),
    params: { id: `The ${entity}; a malformed, unknown or other business's id is a 404` },
  };
  return [
    {
      ...common,
      method: 'get',
      operationId: `list${v1 ? '' : 'Business'}${Entity}Comments`,
      summary: `List the comments on ${entity === 'issue' ? 'an' : 'a'} ${entity}${v1 ? '' : ' (dashboard)'}`,
      description: 'Oldest first by default: a conversation reads forwards.',
      action: 'read',
      query: v1 ? listCommentsQuery : listCommentsOffsetQuery,
      responses: [{ status: 200, description: 'The comments', json: v1 ? commentPageSchema : commentOffsetPageSchema }],
    },
    {
      ...common,
      method: 'post',
      operationId: `add${v1 ? '' : 'Business'}${Entity}Comment`,
      summary: `Comment on ${entity === 'issue' ? 'an' : 'a'} ${entity}${v1 ? '' : ' (dashboard)'}`,
      description: 'Through an API key, the stored text is prefixed `[via API: <key name>] `.',
      action: 'comment',
      body: createCommentBody,
      responses: [{ status: 201, description: 'The new comment', json: commentSchema }],
    },
  ];
}

export const commentDocs: Feature = {
  tags: [],
  operations: [
    ...commentOperations('suggestion', 'v1'),
    ...commentOperations('issue', 'v1'),
    ...commentOperations('suggestion', 'business'),
    ...commentOperations('issue', 'business'),
  ],
};
