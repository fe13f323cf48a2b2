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

/**
 * feedback_term_overlap(typed, terms) as the finder computes it, `there` being the candidate's terms as
 * a tsvector (`array_to_tsvector`): the typed words it has are those `ts_delete` takes away. C
 * functions only, so PostgreSQL evaluates it in place, where feedback_term_overlap is a SQL function
 * with a subquery that it cannot inline (12 µs a row on PostgreSQL 15). The same value: both lists
 * are sets (a tsvector's lexemes), bench/similarity/evaluate.ts checks it on the labelled pairs.
 */
export const TERM_OVERLAP_SQL = (typedTerms: string, there: string) => /* sql */ `CASE
        WHEN cardinality(${typedTerms}) = 0 OR length(${there}) = 0 THEN 0::float8
        ELSE (length(${there}) - length(ts_delete(${there}, ${typedTerms})))::float8
          / least(cardinality(${typedTerms}), length(${there})) END`;

/** The score a suggestion needs to be offered, chosen on the labelled pairs (bench/similarity/). */
export const MATCH_THRESHOLD = 0.6;

/**
 * How many candidates the lookup GIN's search keys give before they are scored (0076): those with every
 * subject word of the text, then, only when fewer of those than asked for are found and the text has
 * more than one subject word (with one, every and any are the same), those with any:
 * the ones with every word score 1 (their overlap is whole), so when there are enough of them no other
 * candidate can score higher (one whose own words are all typed ties, and is then not read: a text
 * of common words is answered from these only, as it stopped at 50 of them before). No candidate comes
 * from the trigram distance order (GiST, 0027_merging.sql) any more: on a small vocabulary the
 * nearest-neighbour scan read the whole index (3,300 to 3,600 pages, 160 to 700 ms at 100,000
 * suggestions), and on the labelled pairs every pair at the threshold shares a subject word
 * (docs/decisions.md, "Finding the candidates").
 */
const WITH_ALL_WORDS = 50;
/**
 * 150 until the bench's typing measure showed the any-word candidates to be most of the finder's time
 * (issue 42): over the bench's 95 typed prefixes at 100,000 suggestions, 50 offered as many
 * suggestions (155) and as many scoring 1 (30) as 150 did, in a third of the scoring.
 */
const WITH_ANY_WORD = 50;
/**
 * How many of the rows the search keys name are checked for the typed words in their content: `search`
 * holds the customer's name too, and a row named only through it is parsed and left out, so without a
 * bound a word common in names would parse every such row per keystroke.
 */
const NAMED_FOR_CHECK = 4 * WITH_ANY_WORD;

/**
 * The typed words (`terms`, a text[] of stems) as a tsquery of `search` (0076_subject_words_from_search.sql):
 * every one (`&`) or any (`|`), each quoted as a lexeme (a quote doubled, a backslash, chr(92), escaped), so
 * tsquery's input takes it as it is, unparsed and unstemmed. `search` holds every stem of the content
 * and of the customer's name: the GIN's answer is a superset, and the content's own words are checked
 * on each candidate it names (`feedback_terms(s.content)`, only for those rows).
 */
const termsQuerySql = (terms: string, operator: '&' | '|') => /* sql */ `(
          SELECT string_agg('''' || replace(replace(term, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' ${operator} ')
          FROM unnest(${terms}) AS term)::tsquery`;

export interface SimilarRow extends SuggestionRow {
  similarity: number;
}

/** Which suggestions may be offered: all but merged ones (merging), or only what the page shows. */
export type SimilarScope = 'unmerged' | 'public';

/**
 * The business's suggestions most like `text`, at least MATCH_THRESHOLD alike, the most alike first
 * (then the closer spelling, then the most voted), at most `limit`, never `exceptId`. Candidates come
 * from the lookup GIN's search keys (bounded, see above; of the rows the GIN names, at most
 * NAMED_FOR_CHECK are checked for the content's own words, so a word common in customers' names
 * parses no more contents than that), and only they are scored, each value once: the
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
      SELECT $2::text AS text, terms,
        ${termsQuerySql('terms', '&')} AS every_query,
        ${termsQuerySql('terms', '|')} AS any_query
      FROM feedback_terms($2::text) AS terms
    ),
    every_word AS MATERIALIZED (
      SELECT s.*
      FROM (
        SELECT ${columns}
        FROM suggestions s, typed
        WHERE s.business_id = $1
          AND cardinality(typed.terms) > 0
          AND s.search @@ typed.every_query
          ${shown}
          AND s.id IS DISTINCT FROM $3::uuid
        LIMIT ${NAMED_FOR_CHECK}
      ) AS s, typed
      WHERE feedback_terms(s.content) @> typed.terms
      LIMIT ${WITH_ALL_WORDS}
    ),
    any_word AS MATERIALIZED (
      SELECT s.*
      FROM (
        SELECT ${columns}, array_to_tsvector(feedback_terms(s.content)) AS there
        FROM suggestions s, typed
        WHERE (SELECT count(*) FROM every_word) < $5
          AND cardinality(typed.terms) > 1
          AND s.business_id = $1
          AND s.search @@ typed.any_query
          ${shown}
          AND s.id IS DISTINCT FROM $3::uuid
          AND s.id <> ALL (ARRAY(SELECT id FROM every_word))
        LIMIT ${NAMED_FOR_CHECK}
      ) AS s, typed
      -- the content's words, once: a tsvector has none of them when it shares none
      WHERE length(ts_delete(s.there, typed.terms)) < length(s.there)
      LIMIT ${WITH_ANY_WORD}
    ),
    scored AS MATERIALIZED (
      SELECT e.*, 1::float8 AS overlap, similarity(typed.text, e.content) AS spelling
      FROM every_word e, typed
      UNION ALL
      SELECT ${columnList(SUGGESTION_COLUMN_MAP, 'a')},
        ${TERM_OVERLAP_SQL('typed.terms', 'a.there')},
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
