import type { Queryable } from '../db/database.js';
import type { CommentBatch, IssueBatch, SuggestionBatch } from './seed.rows.js';

/**
 * Bulk inserts: one statement per batch, each column sent as one array and turned back into rows by
 * unnest. Thousands of rows cost one round trip, one plan, and one firing of the counting triggers.
 * Times travel as epoch milliseconds, which land exactly on the millisecond columns.
 */

const EPOCH_MS = /* sql */ `timestamptz 'epoch' + interval '1 millisecond' *`;

/** The seed's texts are English, scored with the English lexicon (seed.text.ts): their language and lexicon say so. */
export async function insertSuggestionBatch(db: Queryable, businessId: string, b: SuggestionBatch): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO suggestions (id, business_id, content, status, priority, sentiment, sentiment_score, language,
      sentiment_lexicon, customer_name, customer_email, is_anonymous, upvote_count, visibility, review_state,
      location_id, source, created_at, updated_at)
    SELECT id, $1, content, status, priority, sentiment, sentiment_score, 'en', 'en', customer_name,
      customer_email, is_anonymous, upvote_count, visibility, review_state, location_id, 'import',
      ${EPOCH_MS} created_ms, ${EPOCH_MS} updated_ms
    FROM unnest($2::uuid[], $3::text[], $4::suggestion_status[], $5::priority[], $6::sentiment[], $7::real[],
      $8::text[], $9::text[], $10::boolean[], $11::integer[], $12::visibility[], $13::review_state[], $14::uuid[],
      $15::bigint[], $16::bigint[])
      AS t (id, content, status, priority, sentiment, sentiment_score, customer_name,
        customer_email, is_anonymous, upvote_count, visibility, review_state, location_id, created_ms, updated_ms)`,
    [
      businessId,
      b.id,
      b.content,
      b.status,
      b.priority,
      b.sentiment,
      b.sentimentScore,
      b.customerName,
      b.customerEmail,
      b.isAnonymous,
      b.upvoteCount,
      b.visibility,
      b.reviewState,
      b.locationId,
      b.createdAt,
      b.updatedAt,
    ],
  );
}

export async function insertIssueBatch(db: Queryable, businessId: string, b: IssueBatch): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO issues (id, business_id, title, description, status, priority, assignee_id, customer_name,
      customer_email, is_anonymous, location_id, source, resolved_at, created_at, updated_at)
    SELECT id, $1, title, description, status, priority, assignee_id, customer_name,
      customer_email, is_anonymous, location_id, 'import',
      ${EPOCH_MS} resolved_ms, ${EPOCH_MS} created_ms, ${EPOCH_MS} updated_ms
    FROM unnest($2::uuid[], $3::text[], $4::text[], $5::issue_status[], $6::priority[], $7::uuid[], $8::text[],
      $9::text[], $10::boolean[], $11::uuid[], $12::bigint[], $13::bigint[], $14::bigint[])
      AS t (id, title, description, status, priority, assignee_id, customer_name,
        customer_email, is_anonymous, location_id, resolved_ms, created_ms, updated_ms)`,
    [
      businessId,
      b.id,
      b.title,
      b.description,
      b.status,
      b.priority,
      b.assigneeId,
      b.customerName,
      b.customerEmail,
      b.isAnonymous,
      b.locationId,
      b.resolvedAt,
      b.createdAt,
      b.updatedAt,
    ],
  );
}

export async function insertCommentBatch(db: Queryable, businessId: string, b: CommentBatch): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO comments (id, business_id, entity_type, entity_id, content, author_id, created_at)
    SELECT id, $1, entity_type, entity_id, content, author_id, ${EPOCH_MS} created_ms
    FROM unnest($2::uuid[], $3::entity_type[], $4::uuid[], $5::text[], $6::uuid[], $7::bigint[])
      AS t (id, entity_type, entity_id, content, author_id, created_ms)`,
    [businessId, b.id, b.entityType, b.entityId, b.content, b.authorId, b.createdAt],
  );
}

/** What generated rows may point at: the business's members and locations. */
export async function findSeedTargets(db: Queryable, businessId: string) {
  const { rows } = await db.query<{ member_ids: string[]; location_ids: string[] }>(
    /* sql */ `
    SELECT
      ARRAY(SELECT user_id FROM memberships WHERE business_id = $1 ORDER BY user_id) AS member_ids,
      ARRAY(SELECT id FROM locations WHERE business_id = $1 ORDER BY id) AS location_ids`,
    [businessId],
  );
  return rows[0]!;
}
