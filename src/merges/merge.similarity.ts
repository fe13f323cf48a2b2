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
 * subject word of the text, then, only when fewer of those than asked for are found, those with any:
 * the ones with every word score 1 (their overlap is whole), so when there are enough of them no other
 * candidate can rank above them, and a text of common words stops at these many. No candidate comes
 * from the trigram distance order (GiST, 0027_merging.sql) any more: on a small vocabulary the
 * nearest-neighbour scan read the whole index (3,300 to 3,600 pages, 160 to 700 ms at 100,000
 * suggestions), and on the labelled pairs every pair at the threshold shares a subject word
 * (docs/decisions.md, "Finding the candidates").
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
 * from the subject-word index (bounded, see above), and only they are scored, each value once: the
 * typed text's words once per statement (`typed`), a candidate's words only when it lacks some of
 * them (one with every word overlaps wholly), its overlap as MATCH_SCORE_SQL's counted on a tsvector
 * (the candidate's words less the typed ones: C functions, where feedback_term_overlap is a SQL
 * function with a subquery PostgreSQL cannot inline), and its trigram similarity once for the score
 * and the order. Candidates are read whole from their bitmap heap scans, not looked up again.
 */
export async function findSimilarToText(
  db: Queryable,
  businessId: string,
  text: string,
  options: { limit: number; scope: SimilarScope; exceptId?: string },
): Promise<SimilarRow[]> {
  const shown = options.scope === 'public' ? `AND ${PUBLICLY_VISIBLE}` : 'AND merged_into IS NULL';
  const columns = columnList(SUGGESTION_COLUMN_MAP, 's');
  const { rows } = await db.query<SimilarRow>(
    /* sql */ `
    WITH typed AS (
      SELECT $2::text AS text, feedback_terms($2::text) AS terms
    ),
    every_word AS MATERIALIZED (
      SELECT ${columns}
      FROM suggestions s, typed
      WHERE s.business_id = $1
        AND cardinality(typed.terms) > 0
        AND feedback_terms(s.content) @> typed.terms
        ${shown}
        AND s.id IS DISTINCT FROM $3::uuid
      LIMIT ${WITH_ALL_WORDS}
    ),
    any_word AS MATERIALIZED (
      SELECT ${columns}, array_to_tsvector(feedback_terms(s.content)) AS there
      FROM suggestions s, typed
      WHERE (SELECT count(*) FROM every_word) < $5
        AND s.business_id = $1
        AND feedback_terms(s.content) && typed.terms
        ${shown}
        AND s.id IS DISTINCT FROM $3::uuid
        AND s.id <> ALL (ARRAY(SELECT id FROM every_word))
      LIMIT ${WITH_ANY_WORD}
    ),
    scored AS MATERIALIZED (
      SELECT e.*, 1::float8 AS overlap, similarity(typed.text, e.content) AS spelling
      FROM every_word e, typed
      UNION ALL
      SELECT ${columnList(SUGGESTION_COLUMN_MAP, 'a')},
        CASE WHEN cardinality(typed.terms) = 0 OR length(a.there) = 0 THEN 0::float8
        ELSE (length(a.there) - length(ts_delete(a.there, typed.terms)))::float8
          / least(cardinality(typed.terms), length(a.there)) END,
        similarity(typed.text, a.content)
      FROM any_word a, typed
    )
    SELECT ${columnList(SUGGESTION_COLUMN_MAP, 'scored')},
      round(greatest(scored.spelling, scored.overlap)::numeric, 4)::float8 AS similarity
    FROM scored
    WHERE greatest(scored.spelling, scored.overlap) >= $4
    ORDER BY similarity DESC, scored.spelling DESC, scored.upvote_count DESC, scored.id
    LIMIT $5`,
    [businessId, text, options.exceptId ?? null, MATCH_THRESHOLD, options.limit],
  );
  return rows;
}
