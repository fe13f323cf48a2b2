import { z } from 'zod';

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_TERMS = 16;
export const SEARCH_CONFIG = 'english';

/**
 * Turns free text into a tsquery matching every word as a prefix (`cof` finds "coffee"). Only
 * letters and digits survive, so no tsquery operator typed by a client reaches the parser.
 */
export function toPrefixQuery(text: string): string | null {
  const words = (text.match(WORD) ?? []).slice(0, MAX_TERMS);
  return words.length === 0 ? null : words.map((w) => `${w.toLowerCase()}:*`).join(' & ');
}

/** What the document says of `q`: the same letters and digits toPrefixQuery keeps. */
const HAS_WORD = '[\\p{L}\\p{N}]';

/**
 * The `q` parameter: 1..200 characters (zod counts code points, as JSON Schema does) with at least one
 * letter or digit, parsed into a tsquery.
 */
export const searchParam = z
  .string()
  .min(1)
  .max(200)
  .meta({ pattern: HAS_WORD })
  .transform((value, ctx) => {
    const query = toPrefixQuery(value);
    if (query === null) {
      ctx.addIssue({ code: 'custom', message: 'must contain at least one letter or digit' });
      return z.NEVER;
    }
    return query;
  });

/** The SQL condition for a prefix tsquery against a table's stored `search` column. */
export const SEARCH_CONDITION = `search @@ to_tsquery('${SEARCH_CONFIG}', ?)`;
export const searchRank = (param: string) => `ts_rank(search, to_tsquery('${SEARCH_CONFIG}', ${param}))`;

/** `sort=relevance` ranks by the search, so it needs `q`. */
export const relevanceNeedsQuery = {
  check: (query: { sort: string; q?: string }) => query.sort !== 'relevance' || query.q !== undefined,
  issue: { message: 'sort=relevance needs q', path: ['sort'] },
};
