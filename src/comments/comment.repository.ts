import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { orderAndPage, type PageRequest } from '../db/paging.js';
import { whereClause, type Condition } from '../db/where.js';
import { COMMENT_COLUMN_MAP, type CommentRow, type EntityType } from './comment.columns.js';

export type { CommentRow, EntityType };

const COLUMNS = columnList(COMMENT_COLUMN_MAP);

/** Constant table names per commentable entity. */
const PARENT_TABLES: Record<EntityType, string> = { suggestion: 'suggestions', issue: 'issues' };

/** `forShare` locks the parent for the transaction, so it cannot vanish between this check and an insert. */
export async function parentExists(
  db: Queryable,
  businessId: string,
  entityType: EntityType,
  id: string,
  { forShare = false } = {},
): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT 1
    FROM ${PARENT_TABLES[entityType]}
    WHERE business_id = $1
      AND id = $2
    ${forShare ? 'FOR SHARE' : ''}`,
    [businessId, id],
  );
  return rows.length > 0;
}

export async function insertComment(
  db: Queryable,
  businessId: string,
  comment: {
    id: string;
    entityType: EntityType;
    entityId: string;
    content: string;
    authorId: string;
    apiKeyId: string | null;
  },
): Promise<CommentRow> {
  const { rows } = await db.query<CommentRow>(
    /* sql */ `
    INSERT INTO comments (id, business_id, entity_type, entity_id, content, author_id, api_key_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    RETURNING ${COLUMNS}`,
    [comment.id, businessId, comment.entityType, comment.entityId, comment.content, comment.authorId, comment.apiKeyId],
  );
  return rows[0]!;
}

const entityConditions = (entityType: EntityType, entityId: string): Condition[] => [
  ['entity_type = ?', entityType],
  ['entity_id = ?', entityId],
];

export async function findComments(
  db: Queryable,
  businessId: string,
  entityType: EntityType,
  entityId: string,
  page: PageRequest<'created_at'>,
): Promise<CommentRow[]> {
  const { sql, params } = whereClause(businessId, entityConditions(entityType, entityId));
  const { rows } = await db.query<CommentRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM comments
    ${sql}
    ${orderAndPage('created_at', page, params)}`,
    params,
  );
  return rows;
}

export async function countComments(
  db: Queryable,
  businessId: string,
  entityType: EntityType,
  entityId: string,
): Promise<number> {
  const { sql, params } = whereClause(businessId, entityConditions(entityType, entityId));
  const { rows } = await db.query<{ total: number }>(
    /* sql */ `
    SELECT count(*) AS total
    FROM comments
    ${sql}`,
    params,
  );
  return rows[0]!.total;
}
