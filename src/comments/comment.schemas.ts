import { z } from 'zod';
import { MAX_PAGE, offsetParams, queryInt, sortOrder, text } from '../shared/schemas.js';

export const COMMENT_CONTENT_MAX = 5000;

export const createCommentBody = z
  .strictObject({
    content: text(COMMENT_CONTENT_MAX),
  })
  .meta({ examples: [{ content: 'Oat milk arrives with Monday’s delivery; we will try it for a month.' }] });

/** Comment listings read a conversation forwards: oldest first by default. */
const commentOrder = { sort: z.enum(['created_at']).default('created_at'), order: sortOrder.default('asc') };

export const listCommentsQuery = z.strictObject({
  page: queryInt(1, MAX_PAGE).default(1),
  limit: queryInt(1, 100).default(50),
  ...commentOrder,
});

export const listCommentsOffsetQuery = z.strictObject({ ...offsetParams, ...commentOrder });
