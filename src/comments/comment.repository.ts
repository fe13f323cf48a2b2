import type { Queryable } from '../db/database.js';

export type EntityType = 'suggestion' | 'issue';

export interface CommentRow {
  id: string;
  entity_type: EntityType;
  entity_id: string;
  content: string;
  author_id: string;
  created_at: Date;
}

const COLUMNS = 'id, entity_type, entity_id, content, author_id, created_at';
/** Constant table names per commentable entity. */
const PARENT_TABLES: Record<EntityType, string> = { suggestion: 'suggestions', issue: 'issues' };

/** Takes a share lock on the parent so it cannot vanish between this check and the insert. */
export async function lockParent(
  db: Queryable,
  businessId: string,
  entityType: EntityType,
  id: string,
): Promise<boolean> {
  const { rows } = await db.query(
    /* sql */ `
    SELECT 1
    FROM ${PARENT_TABLES[entityType]}
    WHERE business_id = $1
      AND id = $2
    FOR SHARE`,
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
