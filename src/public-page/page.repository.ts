import { changeNumberSql } from '../cache/change.repository.js';
import type { Queryable } from '../db/database.js';
import type { RoadmapStatus } from '../businesses/business.schemas.js';
import type { SuggestionStatus } from '../shared/schemas.js';
import type { SuggestionReply } from '../suggestions/suggestion.columns.js';
import { PUBLICLY_VISIBLE } from '../votes/vote.repository.js';

/** What a scanned code leads to: its business and location, by name. */
export interface CodeTarget {
  qr_code_id: string;
  business_id: string;
  business_name: string;
  location_id: string | null;
  location_name: string | null;
  active: boolean;
  /** The business's roadmap settings (migrations/0044_roadmap.sql): off, its page is a 404. */
  roadmap_enabled: boolean;
  roadmap_statuses: RoadmapStatus[];
  /** The business's brand (migrations/0058_brand.sql): its colour, and its logo when it has one. */
  brand_color: string | null;
  logo: { hash: string; content_type: 'image/png' | 'image/jpeg'; width: number; height: number } | null;
  /** The language a visitor with no preference reads the page in (migrations/0055_languages.sql). */
  default_language: string;
  /** The business's change number, read before anything else (docs/caching.md). */
  change_number: number;
}

type CodeTargetRow = Omit<CodeTarget, 'logo'> & {
  logo_hash: string | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  logo_width: number | null;
  logo_height: number | null;
};

/**
 * The logo's columns come flat and are put together here: the page reads this on every request, and
 * a JSON object built in SQL costs its building and its parsing there.
 */
export async function findCodeTarget(db: Queryable, code: string): Promise<CodeTarget | null> {
  const { rows } = await db.query<CodeTargetRow>(
    /* sql */ `
    SELECT q.id AS qr_code_id, q.business_id, b.name AS business_name, q.location_id, l.name AS location_name,
      q.active, b.roadmap_enabled, b.roadmap_statuses, b.brand_color, b.default_language,
      g.hash AS logo_hash, g.content_type AS logo_type, g.width AS logo_width, g.height AS logo_height,
      ${changeNumberSql('q.business_id')} AS change_number
    FROM qr_codes q
    JOIN businesses b ON b.id = q.business_id
    LEFT JOIN locations l ON l.business_id = q.business_id AND l.id = q.location_id
    LEFT JOIN business_logos g ON g.business_id = q.business_id
    WHERE q.code = $1`,
    [code],
  );
  const row = rows[0];
  if (!row) return null;
  const { logo_hash: hash, logo_type: type, logo_width: width, logo_height: height, ...target } = row;
  const logo = hash && type && width && height ? { hash, content_type: type, width, height } : null;
  return { ...target, logo };
}

/** A suggestion as the page shows it: never an email, never anything internal. */
export interface PublicSuggestionRow {
  id: string;
  content: string;
  status: Exclude<SuggestionStatus, 'rejected'>;
  customer_name: string | null;
  upvote_count: number;
  created_at: Date;
  /** The business's public reply (migrations/0022_suggestion_reply.sql). */
  reply: SuggestionReply | null;
  /** Only the tags the business made public, in the item's order (migrations/0026_tags.sql). */
  tags: string[];
}

export type PublicSort = 'trending' | 'top' | 'new';

/**
 * Trending: (votes + 1) / (hours since posted + 2)^1.5, the Hacker News gravity formula: a vote
 * counts most while the suggestion is new, so fresh ideas can climb past old favourites. Constants only.
 * In double precision: `extract` answers numeric, whose power() made ranking 10,000 suggestions take
 * 280 ms instead of 20 ms.
 */
const ORDERS: Record<PublicSort, string> = {
  trending: /* sql */ `(upvote_count + 1) / power(extract(epoch FROM (now() - created_at))::float8 / 3600 + 2, 1.5) DESC,
      created_at DESC, id DESC`,
  top: 'upvote_count DESC, created_at DESC, id DESC',
  new: 'created_at DESC, id DESC',
};

/** The item's tags that the business marked public, in the item's own (alphabetical) order. */
const PUBLIC_TAGS = /* sql */ `ARRAY(
        SELECT x.name
        FROM unnest(tags) WITH ORDINALITY AS x (name, i)
        WHERE EXISTS (
          SELECT 1
          FROM tags t
          WHERE t.business_id = suggestions.business_id
            AND t.name = x.name
            AND t.public)
        ORDER BY x.i) AS tags`;

const PUBLIC_COLUMNS = `id, content, status, customer_name, upvote_count, created_at, reply, ${PUBLIC_TAGS}`;

/**
 * The rows the newest-first order can reach, read from the roadmap's index (public, reviewed, not
 * merged; by status, then newest first: migrations/0071): each status's newest `limit + offset`
 * shown rows, which the list then orders and pages as one. The same rows and order as a sort of them
 * all, with no index of its own on every public create.
 */
const NEWEST_OF_EACH_STATUS = /* sql */ `(
        SELECT n.*
        FROM unnest(enum_range(NULL::suggestion_status)) AS c (shown)
        CROSS JOIN LATERAL (
          SELECT s.*
          FROM suggestions s
          WHERE s.business_id = $1
            AND s.status = c.shown
            AND ${PUBLICLY_VISIBLE}
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT $2::bigint + $3::bigint
        ) AS n
      ) AS suggestions`;

export async function findPublicSuggestions(
  db: Queryable,
  businessId: string,
  window: { sort: PublicSort; limit: number; offset: number },
): Promise<{ rows: PublicSuggestionRow[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    db.query<PublicSuggestionRow>(
      /* sql */ `
      SELECT ${PUBLIC_COLUMNS}
      FROM ${window.sort === 'new' ? NEWEST_OF_EACH_STATUS : 'suggestions'}
      WHERE business_id = $1
        AND ${PUBLICLY_VISIBLE}
      ORDER BY ${ORDERS[window.sort]}
      LIMIT $2
      OFFSET $3`,
      [businessId, window.limit, window.offset],
    ),
    db.query<{ total: number }>(
      /* sql */ `
      SELECT count(*)::int AS total
      FROM suggestions
      WHERE business_id = $1
        AND ${PUBLICLY_VISIBLE}`,
      [businessId],
    ),
  ]);
  return { rows, total: count.rows[0]!.total };
}

export async function findPublicSuggestion(
  db: Queryable,
  businessId: string,
  id: string,
): Promise<PublicSuggestionRow | null> {
  const { rows } = await db.query<PublicSuggestionRow>(
    /* sql */ `
    SELECT ${PUBLIC_COLUMNS}
    FROM suggestions
    WHERE business_id = $1
      AND id = $2
      AND ${PUBLICLY_VISIBLE}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

/**
 * Where the page shows a suggestion: its own id, or, merged, the id of the suggestion it is merged
 * into; null when the page shows neither (not public, awaiting review, rejected, another business's).
 */
export async function findShownPlace(db: Queryable, businessId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    /* sql */ `
    SELECT id
    FROM suggestions
    WHERE business_id = $1
      AND id = (
        SELECT COALESCE(merged_into, id)
        FROM suggestions
        WHERE business_id = $1
          AND id = $2)
      AND ${PUBLICLY_VISIBLE}`,
    [businessId, id],
  );
  return rows[0]?.id ?? null;
}

export interface ScanCount {
  qrCodeId: string;
  businessId: string;
  /** UTC day, YYYY-MM-DD */
  day: string;
  scans: number;
}

/** Adds a batch of counts in one statement; codes deleted since they were counted are skipped. */
export async function addScans(db: Queryable, counts: ScanCount[]): Promise<void> {
  await db.query(
    /* sql */ `
    INSERT INTO qr_code_scans AS s (qr_code_id, business_id, day, scans)
    SELECT q.id, q.business_id, c.day, c.scans
    FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS c (qr_code_id, day, scans)
    JOIN qr_codes q ON q.id = c.qr_code_id
    ORDER BY q.id, c.day
    ON CONFLICT (qr_code_id, day)
    DO UPDATE SET scans = s.scans + EXCLUDED.scans`,
    [counts.map((c) => c.qrCodeId), counts.map((c) => c.day), counts.map((c) => c.scans)],
  );
}

/** A form token that has sent feedback, and what its post answered. */
export interface UsedFormToken {
  suggestion_id: string;
  awaiting_review: boolean;
}

/**
 * Records that a form token sent a suggestion; false when it had already sent one (a row under its
 * digest exists, or is being written by a transaction this one then waits for).
 */
export async function insertUsedFormToken(
  db: Queryable,
  businessId: string,
  token: { digest: Buffer; expiresAt: Date; suggestionId: string; awaitingReview: boolean },
): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    INSERT INTO page_form_tokens (digest, business_id, suggestion_id, awaiting_review, expires_at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (digest) DO NOTHING`,
    [token.digest, businessId, token.suggestionId, token.awaitingReview, token.expiresAt],
  );
  return rowCount === 1;
}

export async function findUsedFormToken(
  db: Queryable,
  businessId: string,
  digest: Buffer,
): Promise<UsedFormToken | null> {
  const { rows } = await db.query<UsedFormToken>(
    /* sql */ `
    SELECT suggestion_id, awaiting_review
    FROM page_form_tokens
    WHERE business_id = $1
      AND digest = $2`,
    [businessId, digest],
  );
  return rows[0] ?? null;
}

/**
 * Deletes up to `limit` rows of tokens that expired before `now`, of every business (no token is
 * accepted after it expires, so none is needed): each post prunes a few, so the table holds about
 * one token lifetime of posts. Rows another post is pruning are skipped, not waited for.
 */
export async function deleteExpiredFormTokens(db: Queryable, now: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM page_form_tokens
    WHERE digest IN (
      SELECT digest
      FROM page_form_tokens
      WHERE expires_at < $1
      ORDER BY expires_at
      LIMIT $2
      FOR UPDATE SKIP LOCKED
    )`,
    [now, limit],
  );
  return rowCount ?? 0;
}
