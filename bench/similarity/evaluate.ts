/**
 * `npx tsx bench/similarity/evaluate.ts [postgres-url]`: precision and recall of pg_trgm's measures
 * (and of word-level matching) at several thresholds, on the labelled pairs of pairs.ts, on the
 * embedded database (PGlite, which ships pg_trgm) and on PostgreSQL (BENCH_DATABASE_URL, or the URL
 * given). docs/decisions.md ("Similar suggestions: which measure") holds the figures and the choice.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { PAIRS } from './pairs.js';
import { MATCH_SCORE_SQL, TERM_OVERLAP_SQL } from '../../src/merges/merge.similarity.js';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, number>[]>;

/** Each measure of a pair, `$1` the typed text, `$2` the suggestion already there. */
const MEASURES: Record<string, string> = {
  similarity: 'similarity($1, $2)',
  word_similarity: 'word_similarity($1, $2)',
  word_similarity_both: 'greatest(word_similarity($1, $2), word_similarity($2, $1))',
  strict_word_similarity: 'strict_word_similarity($1, $2)',
  strict_word_similarity_both: 'greatest(strict_word_similarity($1, $2), strict_word_similarity($2, $1))',
  // The share of the shorter text's English stems (stop words left out) that the other has too.
  stem_overlap: `(SELECT count(*) FROM unnest(tsvector_to_array(to_tsvector('english', $1))) x
      WHERE x = ANY (tsvector_to_array(to_tsvector('english', $2))))::float8
    / greatest(1, least(
        coalesce(array_length(tsvector_to_array(to_tsvector('english', $1)), 1), 0),
        coalesce(array_length(tsvector_to_array(to_tsvector('english', $2)), 1), 0)))`,
  term_overlap: 'feedback_term_overlap(feedback_terms($1), feedback_terms($2))',
  similarity_or_term_overlap: MATCH_SCORE_SQL('$1', '$2'),
  // What the finder can offer: its candidates all share a subject word with the typed text (the GIN
  // index of 0044), so a pair sharing none is never scored (merge.similarity.ts).
  finder_candidates_only: `CASE WHEN feedback_terms($1) && feedback_terms($2) THEN ${MATCH_SCORE_SQL('$1', '$2')} ELSE 0 END`,
  // The same, scored as the finder scores a candidate (its overlap counted on a tsvector).
  finder_as_scored: `CASE WHEN feedback_terms($1) && feedback_terms($2) THEN greatest(similarity($1, $2),
    ${TERM_OVERLAP_SQL('feedback_terms($1)', 'array_to_tsvector(feedback_terms($2))')}) ELSE 0 END`,
};

/** The word functions, as the migrations make them (0044, and 0066's faster feedback_terms). */
const FUNCTIONS = ['0044_roadmap.sql', '0066_feedback_terms_inline.sql'].flatMap((file) =>
  [
    ...readFileSync(new URL(`../../migrations/${file}`, import.meta.url), 'utf8').matchAll(
      /CREATE (?:OR REPLACE )?FUNCTION feedback_[\s\S]*?\$\$;/g,
    ),
  ].map((match) => match[0].replace(/CREATE (OR REPLACE )?FUNCTION/, 'CREATE OR REPLACE FUNCTION')),
);

const THRESHOLDS = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7];

async function scores(query: Query): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const [name, sql] of Object.entries(MEASURES)) {
    out[name] = [];
    for (const pair of PAIRS) {
      const [row] = await query(`SELECT (${sql})::float8 AS score`, [pair.a, pair.b]);
      out[name].push(Number(row!.score));
    }
  }
  return out;
}

function table(label: string, all: Record<string, number[]>): string[] {
  const lines = [
    `${label}: ${PAIRS.filter((p) => p.duplicate).length} duplicate, ${PAIRS.filter((p) => !p.duplicate).length} unrelated pairs`,
  ];
  lines.push('measure | ' + THRESHOLDS.map((t) => `≥${t} P/R`).join(' | '));
  for (const [name, values] of Object.entries(all)) {
    const cells = THRESHOLDS.map((t) => {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      values.forEach((v, i) => {
        const hit = v >= t;
        if (hit && PAIRS[i]!.duplicate) tp++;
        else if (hit) fp++;
        else if (PAIRS[i]!.duplicate) fn++;
      });
      const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
      return `${precision.toFixed(2)}/${(tp / (tp + fn)).toFixed(2)}`;
    });
    lines.push(`${name} | ${cells.join(' | ')}`);
  }
  const vegan = PAIRS.findIndex((p) => p.a === 'More vegan options' && p.b === 'Vegan food please');
  lines.push(
    `"More vegan options" ~ "Vegan food please": ${Object.entries(all)
      .map(([n, v]) => `${n} ${v[vegan]!.toFixed(3)}`)
      .join(', ')}`,
  );
  return lines;
}

const lite = new PGlite({ extensions: { pg_trgm } });
await lite.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
for (const sql of FUNCTIONS) await lite.exec(sql);
const embedded = await scores(async (sql, params) => (await lite.query<Record<string, number>>(sql, params)).rows);
await lite.close();
const url = process.argv[2] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url });
await client.connect();
// In a transaction rolled back at the end: the database given is left as it was.
await client.query('BEGIN');
await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
for (const sql of FUNCTIONS) await client.query(sql);
const server = await scores(async (sql, params) => (await client.query<Record<string, number>>(sql, params)).rows);
await client.query('ROLLBACK');
await client.end();
process.stdout.write(`${table('PGlite', embedded).join('\n')}\n\n${table('PostgreSQL', server).join('\n')}\n`);
