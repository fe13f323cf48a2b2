import type { Queryable } from '../db/database.js';
import type { Priority, Sentiment } from '../shared/schemas.js';

/**
 * Bulk inserts as the seed's (src/seed/seed.repository.ts): one statement per batch, each column one
 * array turned back into rows by unnest, so a batch costs one round trip and one firing of the counting
 * triggers (which keep every total exact). A row whose key the business already holds, or whose
 * export id names one of its items, is left out by ON CONFLICT and NOT EXISTS: the returned count is
 * what was created, the rest skipped.
 */

const EPOCH_MS = /* sql */ `timestamptz 'epoch' + interval '1 millisecond' *`;

export interface SuggestionBatch {
  id: string[];
  key: string[];
  sourceId: (string | null)[];
  content: string[];
  status: string[];
  priority: Priority[];
  sentiment: Sentiment[];
  sentimentScore: number[];
  /** The detected language (ISO 639-1, null when unsure) and the lexicon that scored the sentiment. */
  language: (string | null)[];
  lexicon: (string | null)[];
  customerName: (string | null)[];
  customerEmail: (string | null)[];
  upvoteCount: number[];
  /** Each row's tags, as a Postgres array literal (unnest cannot take an array of arrays of any length). */
  tags: string[];
  createdAt: number[];
}

export async function insertImportedSuggestions(
  db: Queryable,
  businessId: string,
  b: SuggestionBatch,
): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    INSERT INTO suggestions (id, business_id, import_key, content, status, priority, sentiment, sentiment_score,
      language, sentiment_lexicon, customer_name, customer_email, is_anonymous, upvote_count, tags, source,
      created_at, updated_at)
    SELECT t.id, $1, t.import_key, t.content, t.status, t.priority, t.sentiment, t.sentiment_score,
      t.language, t.lexicon,
      t.customer_name, t.customer_email, t.customer_name IS NULL AND t.customer_email IS NULL, t.upvote_count,
      t.tags::text[], 'import', ${EPOCH_MS} t.created_ms, ${EPOCH_MS} t.created_ms
    FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::suggestion_status[], $7::priority[],
      $8::sentiment[], $9::real[], $10::text[], $11::text[], $12::integer[], $13::text[], $14::bigint[],
      $15::text[], $16::text[])
      AS t (id, import_key, source_id, content, status, priority, sentiment, sentiment_score,
        customer_name, customer_email, upvote_count, tags, created_ms, language, lexicon)
    WHERE NOT EXISTS (
      SELECT 1
      FROM suggestions s
      WHERE s.business_id = $1
        AND s.id = t.source_id)
    ON CONFLICT (business_id, import_key) WHERE import_key IS NOT NULL DO NOTHING`,
    [
      businessId,
      b.id,
      b.key,
      b.sourceId,
      b.content,
      b.status,
      b.priority,
      b.sentiment,
      b.sentimentScore,
      b.customerName,
      b.customerEmail,
      b.upvoteCount,
      b.tags,
      b.createdAt,
      b.language,
      b.lexicon,
    ],
  );
  return rowCount ?? 0;
}

export interface IssueBatch {
  id: string[];
  key: string[];
  sourceId: (string | null)[];
  title: string[];
  description: string[];
  status: string[];
  priority: Priority[];
  customerName: (string | null)[];
  customerEmail: (string | null)[];
  tags: string[];
  resolvedAt: (number | null)[];
  createdAt: number[];
  /** Detected from the title and description (issueLanguage), null when unsure. */
  language: (string | null)[];
}

export async function insertImportedIssues(db: Queryable, businessId: string, b: IssueBatch): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    INSERT INTO issues (id, business_id, import_key, title, description, status, priority, customer_name,
      customer_email, is_anonymous, tags, source, resolved_at, created_at, updated_at, language)
    SELECT t.id, $1, t.import_key, t.title, t.description, t.status, t.priority, t.customer_name,
      t.customer_email, t.customer_name IS NULL AND t.customer_email IS NULL, t.tags::text[], 'import',
      ${EPOCH_MS} t.resolved_ms, ${EPOCH_MS} t.created_ms, ${EPOCH_MS} t.created_ms, t.language
    FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::issue_status[], $8::priority[],
      $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[], $14::text[])
      AS t (id, import_key, source_id, title, description, status, priority, customer_name,
        customer_email, tags, resolved_ms, created_ms, language)
    WHERE NOT EXISTS (
      SELECT 1
      FROM issues i
      WHERE i.business_id = $1
        AND i.id = t.source_id)
    ON CONFLICT (business_id, import_key) WHERE import_key IS NOT NULL DO NOTHING`,
    [
      businessId,
      b.id,
      b.key,
      b.sourceId,
      b.title,
      b.description,
      b.status,
      b.priority,
      b.customerName,
      b.customerEmail,
      b.tags,
      b.resolvedAt,
      b.createdAt,
      b.language,
    ],
  );
  return rowCount ?? 0;
}

/**
 * Makes the tags a batch names that the business lacks (the default colour, not public), and answers
 * every name in the tags' own spelling, by its lower case: items carry the tag's spelling.
 */
export async function ensureTags(
  db: Queryable,
  businessId: string,
  names: string[],
  ids: string[],
  color: string,
): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  await db.query(
    /* sql */ `
    INSERT INTO tags (id, business_id, name, color)
    SELECT t.id, $1, t.name, $4
    FROM unnest($2::uuid[], $3::text[]) AS t (id, name)
    ORDER BY lower(t.name)
    ON CONFLICT (business_id, lower(name)) DO NOTHING`,
    [businessId, ids, names, color],
  );
  const { rows } = await db.query<{ name: string }>(
    /* sql */ `
    SELECT name
    FROM tags
    WHERE business_id = $1
      AND lower(name) = ANY (SELECT lower(n) FROM unnest($2::text[]) AS n)`,
    [businessId, names],
  );
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.name]));
}
