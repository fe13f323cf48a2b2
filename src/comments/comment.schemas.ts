import { z } from 'zod';
import { MAX_PAGE, queryInt, sortOrder, text } from '../shared/schemas.js';

export const COMMENT_CONTENT_MAX = 5000;

export const createCommentBody = z.strictObject({
  content: text(COMMENT_CONTENT_MAX),
});

/** Comment listing: the list rules of the family, oldest first by default (a conversation reads forwards). */
export const listCommentsQuery = z.strictObject({
  page: queryInt(1, MAX_PAGE).default(1),
  limit: queryInt(1, 100).default(50),
  sort: z.enum(['created_at']).default('created_at'),
  order: sortOrder.default('asc'),
});
