import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema } from '../shared/responses.js';
import { COMMENT_COLUMN_MAP } from './comment.columns.js';

/** Spec 2.3: what toCommentResponse returns. */
export const commentSchema = z.object(fieldsOf(COMMENT_COLUMN_MAP, ['read'])).meta({
  id: 'Comment',
  description: 'A comment on a suggestion or an issue',
  examples: [
    {
      id: EXAMPLE.commentId,
      entity_type: 'suggestion',
      entity_id: EXAMPLE.suggestionId,
      content: '[via API: Zapier sync] Oat milk arrives with Monday’s delivery; we will try it for a month.',
      author_id: EXAMPLE.ownerId,
      created_at: EXAMPLE.updatedAt,
      merged_from: null,
    },
  ],
});
export type Comment = z.infer<typeof commentSchema>;

export const commentPageSchema = pageEnvelopeSchema(commentSchema, 'CommentPage');
export const commentOffsetPageSchema = offsetEnvelopeSchema(commentSchema, 'CommentOffsetPage');
