import type { CommentRow } from './comment.repository.js';
import type { Comment } from './comment.responses.js';

/** Spec 2.3, field by field. */
export function toCommentResponse(comment: CommentRow): Comment {
  return {
    id: comment.id,
    entity_type: comment.entity_type,
    entity_id: comment.entity_id,
    content: comment.content,
    author_id: comment.author_id,
    created_at: comment.created_at.toISOString(),
  };
}
