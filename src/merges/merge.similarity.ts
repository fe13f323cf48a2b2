import { columnList } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { SUGGESTION_COLUMN_MAP } from '../suggestions/suggestion.columns.js';
import type { SuggestionRow } from '../suggestions/suggestion.repository.js';
import { PUBLICLY_VISIBLE } from '../votes/vote.repository.js';

/**
 * How alike a typed text and a suggestion are, for the likely-duplicate finders (docs/decisions.md,
 * "Similar suggestions: which measure"): the larger of pg_trgm's `similarity` (spelling: typos,
 * plurals, the same words reordered) and the share of the shorter text's subject words that the other
 * has too (`feedback_terms`, migrations/0044_roadmap.sql: English stems without stop words and without
 * the words every request is phrased with, "please", "add", "option"...), so that "Vegan food please"
 * is offered for "More vegan options" and "More payment options" is not.
 */
export const MATCH_SCORE_SQL = (
  typed: string,
  there: string,
  typedTerms = `feedback_terms(${typed})`,
) => /* sql */ `greatest(
      similarity(${typed}, ${there}),
      feedback_term_overlap(${typedTerms}, feedback_terms(${there})))`;

/** The score a suggestion needs to be offered, chosen on the labelled pairs (bench/similarity/). */
export const MATCH_THRESHOLD = 0.6;

/**
 * How many candidates the subject-word index gives before they are scored (GIN, 0044): those with every
 * subject word of the text, then those with any: the best of them score 1, found first; a text of
 * common words stops at these many. No candidate comes from the trigram distance order (GiST,
 * 0027_merging.sql) any more: on a small vocabulary the nearest-neighbour scan read the whole index
 * (3,300 to 3,600 pages, 160 to 700 ms at 100,000 suggestions), and on the labelled pairs every pair
 * at the threshold shares a subject word (docs/decisions.md, "Similar while typing: finding the
 * candidates").
 */
const WITH_ALL_WORDS = 50;
const WITH_ANY_WORD = 150;

export interface SimilarRow extends SuggestionRow {
  similarity: number;
}

/** Which suggestions may be offered: all but merged ones (merging), or only what the page shows. */
export type SimilarScope = 'unmerged' | 'public';

/**
 * The business's suggestions most like `text`, at least MATCH_THRESHOLD alike, the most alike first
 * (then the closer spelling, then the most voted), at most `limit`, never `exceptId`. Candidates come
 * from the subject-word index (bounded, see above), and only they are scored, with the typed text's
 * words worked out once (`typed.terms`), not once per candidate.
 */
export async function findSimilarToText(
  db: Queryable,
  businessId: string,
  text: string,
  options: { limit: number; scope: SimilarScope; exceptId?: string },
): Promise<SimilarRow[]> {
  const shown = options.scope === 'public' ? `AND ${PUBLICLY_VISIBLE}` : 'AND merged_into IS NULL';
  const { rows } = await db.query<SimilarRow>(
    /* sql */ `
    WITH typed AS (
      SELECT $2::text AS text, feedback_terms($2::text) AS terms
    ),
    candidates AS (
      (SELECT s.id
      FROM suggestions s, typed
      WHERE s.business_id = $1
        AND cardinality(typed.terms) > 0
        AND feedback_terms(s.content) @> typed.terms
        ${shown}
      LIMIT ${WITH_ALL_WORDS})
      UNION
      (SELECT s.id
      FROM suggestions s, typed
      WHERE s.business_id = $1
        AND feedback_terms(s.content) && typed.terms
        ${shown}
      LIMIT ${WITH_ANY_WORD})
    ),
    scored AS (
      SELECT ${columnList(SUGGESTION_COLUMN_MAP, 's')},
        round((${MATCH_SCORE_SQL('typed.text', 's.content', 'typed.terms')})::numeric, 4)::float8 AS similarity,
        similarity(typed.text, s.content) AS spelling
      FROM candidates c
      JOIN suggestions s ON s.business_id = $1 AND s.id = c.id
      CROSS JOIN typed
      WHERE s.id IS DISTINCT FROM $3::uuid
    )
    SELECT ${columnList(SUGGESTION_COLUMN_MAP, 'scored')}, scored.similarity
    FROM scored
    WHERE similarity >= $4
    ORDER BY similarity DESC, spelling DESC, upvote_count DESC, id
    LIMIT $5`,
    [businessId, text, options.exceptId ?? null, MATCH_THRESHOLD, options.limit],
  );
  return rows;
}
