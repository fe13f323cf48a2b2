import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

/** Spec 2.3, field by field: what toCommentResponse returns. */
export const commentSchema = z
  .object({
    id: uuid,
    entity_type: z.enum(['suggestion', 'issue']),
    entity_id: uuid.meta({ description: 'The commented suggestion or issue' }),
    content: z.string().meta({
      description: 'Through an API key, prefixed `[via API: <key name>] `; otherwise the text as submitted (trimmed)',
    }),
    author_id: uuid.meta({ description: 'The user: through an API key, the user who created the key' }),
    created_at: timestamp,
  })
  .meta({
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
      },
    ],
  });
export type Comment = z.infer<typeof commentSchema>;

export const commentPageSchema = pageEnvelopeSchema(commentSchema, 'CommentPage');
export const commentOffsetPageSchema = offsetEnvelopeSchema(commentSchema, 'CommentOffsetPage');
