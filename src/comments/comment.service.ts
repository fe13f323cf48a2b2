import type pg from 'pg';
import { recordActivity } from '../outbox/outbox.service.js';
import { withTransaction } from '../db/database.js';
import type { Principal } from '../auth/principal.js';
import { notFound } from '../errors/http-error.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../db/paging.js';
import { toCommentResponse } from './comment.presenter.js';
import {
  countComments,
  findComments,
  insertComment,
  parentExists,
  type CommentRow,
  type EntityType,
} from './comment.repository.js';

const ENTITY_NAMES: Record<EntityType, string> = { suggestion: 'Suggestion', issue: 'Issue' };

/** Comments through an API key are attributed to it: `[via API: <key name>] <text>` (spec 2.3). */
export async function addComment(
  pool: pg.Pool,
  principal: Principal,
  entityType: EntityType,
  entityId: string,
  text: string,
): Promise<CommentRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    if (!(await parentExists(tx, businessId, entityType, entityId, { forShare: true }))) {
      throw notFound(ENTITY_NAMES[entityType]);
    }
    const comment = await insertComment(tx, businessId, {
      id: newId(),
      entityType,
      entityId,
      content: principal.kind === 'api_key' ? `[via API: ${principal.keyName}] ${text}` : text,
      authorId: principal.userId,
      apiKeyId: principal.kind === 'api_key' ? principal.keyId : null,
    });
    await recordActivity(tx, principal, {
      type: `${entityType}.commented`,
      entityType,
      entityId,
      data: { comment_id: comment.id },
      publish: { type: 'comment.created', object: toCommentResponse(comment) },
    });
    return comment;
  });
}

export async function listComments(
  pool: pg.Pool,
  businessId: string,
  entityType: EntityType,
  entityId: string,
  page: PageRequest<'created_at'>,
): Promise<{ rows: CommentRow[]; total: number }> {
  if (!(await parentExists(pool, businessId, entityType, entityId))) throw notFound(ENTITY_NAMES[entityType]);
  const [rows, total] = await Promise.all([
    findComments(pool, businessId, entityType, entityId, page),
    countComments(pool, businessId, entityType, entityId),
  ]);
  return { rows, total };
}
