import { presenterOf } from '../db/columns.js';
import { COMMENT_COLUMN_MAP, type CommentRow } from './comment.columns.js';
import type { Comment } from './comment.responses.js';

const read = presenterOf(COMMENT_COLUMN_MAP, ['read']);

/** Spec 2.3: exactly the columns of COMMENT_COLUMN_MAP, in its order. */
export function toCommentResponse(comment: CommentRow): Comment {
  return read(comment);
}
