import { describe, expect, it } from 'vitest';
import { newId } from '../../src/shared/ids.js';
import { useTestApp } from '../support/app.js';
import { countMismatches } from '../support/counts.js';
import { buildBusiness, removeBusiness } from '../support/factories.js';

/**
 * One AFTER INSERT trigger keeps every counter of a suggestion's insert (migrations/0080): the change
 * counter, the status/priority/sentiment and per-day counts, the rank, the tag counts and the unscored
 * count. It reads the row once when the statement inserted one and takes a set-wise path when it
 * inserted many; either way every counter equals what counting the rows gives, whoever writes them.
 */
const ctx = useTestApp();

interface Row {
  tags?: string[];
  sentiment?: 'positive' | 'neutral' | 'negative';
  lexicon?: string | null;
  mergedInto?: string;
  upvotes?: number;
}

/** The rows as the statements' jsonb_to_recordset reads them, each with its id. */
const recordset = (rows: Row[], ids: string[]) =>
  JSON.stringify(
    rows.map((row, i) => ({
      id: ids[i],
      sentiment: row.sentiment ?? 'positive',
      lexicon: row.lexicon === undefined ? 'en' : row.lexicon,
      tags: row.tags ?? [],
      merged_into: row.mergedInto ?? null,
      upvotes: row.upvotes ?? 0,
    })),
  );

/** One INSERT statement of `rows` into the business (no event: a hand-written or imported row). */
async function insert(businessId: string, rows: Row[]): Promise<string[]> {
  const ids = rows.map(() => newId());
  await ctx.db.pool.query(
    /* sql */ `
    INSERT INTO suggestions (id, business_id, content, sentiment, sentiment_score, sentiment_lexicon, language,
      is_anonymous, tags, merged_into, merged_at, upvote_count)
    SELECT r.id, $1, 'Inserted by hand', r.sentiment::sentiment, 0.25, r.lexicon, 'en', true, r.tags, r.merged_into,
      CASE WHEN r.merged_into IS NOT NULL THEN now() END, r.upvotes
    FROM jsonb_to_recordset($2::jsonb)
      AS r (id uuid, sentiment text, lexicon text, tags text[], merged_into uuid, upvotes int)`,
    [businessId, recordset(rows, ids)],
  );
  return ids;
}

const changes = async (businessId: string) =>
  Number(
    (
      await ctx.db.pool.query<{ n: string | null }>('SELECT sum(n) AS n FROM change_counts WHERE business_id = $1', [
        businessId,
      ])
    ).rows[0]!.n ?? 0,
  );

/** Each tag's counter against the tags of the business's unmerged suggestions (a repeat counts twice). */
async function tagMismatches(businessId: string) {
  const { rows } = await ctx.db.pool.query(
    /* sql */ `
    WITH counted AS (
      SELECT tag, n FROM tag_counts WHERE business_id = $1 AND entity = 'suggestion' AND n <> 0
    ), actual AS (
      SELECT t.tag, count(*) AS n
      FROM suggestions s
      CROSS JOIN unnest(s.tags) AS t (tag)
      WHERE s.business_id = $1 AND s.merged_into IS NULL
      GROUP BY t.tag
    )
    SELECT tag, c.n AS counted, a.n AS actual
    FROM counted c
    FULL JOIN actual a USING (tag)
    WHERE c.n IS DISTINCT FROM a.n`,
    [businessId],
  );
  return rows;
}

/** Suggestions without their one rank row, or holding a rank row whose count is not theirs. */
async function rankMismatches(businessId: string) {
  const { rows } = await ctx.db.pool.query(
    /* sql */ `
    SELECT s.id, s.upvote_count, count(r.*) AS ranks
    FROM suggestions s
    LEFT JOIN suggestion_ranks r
      ON r.business_id = s.business_id AND r.suggestion_id = s.id AND r.upvote_count = s.upvote_count
    WHERE s.business_id = $1
    GROUP BY s.id, s.upvote_count
    HAVING count(r.*) <> 1
    UNION ALL
    SELECT r.suggestion_id, r.upvote_count, 0
    FROM suggestion_ranks r
    WHERE r.business_id = $1
      AND NOT EXISTS (SELECT 1 FROM suggestions s WHERE s.id = r.suggestion_id)`,
    [businessId],
  );
  return rows;
}

async function expectExact(businessId: string) {
  expect(await countMismatches(ctx.db, businessId)).toEqual([]);
  expect(await tagMismatches(businessId)).toEqual([]);
  expect(await rankMismatches(businessId)).toEqual([]);
}

describe('the one trigger after a suggestion insert', () => {
  it('When suggestions are inserted one per statement, tagged, unscored, merged or voted, then every counter is exact and each insert is one change', async () => {
    const { business } = await buildBusiness(ctx.db);
    const id = business.id;
    const before = await changes(id); // the business's own creation is a change
    const [target] = await insert(id, [{ tags: ['coffee', 'queue'] }]);
    expect(await changes(id)).toBe(before + 1);
    await insert(id, [{ tags: ['queue', 'queue', 'music'], upvotes: 3 }]);
    await insert(id, [{ sentiment: 'neutral', lexicon: null }]); // unscored
    await insert(id, [{ sentiment: 'neutral', lexicon: null, tags: ['coffee'], mergedInto: target! }]); // merged: ranked, not counted
    await insert(id, [{ sentiment: 'negative' }]);
    await insert(id, []); // a statement that inserts nothing moves nothing
    expect(await changes(id)).toBe(before + 5);
    await expectExact(id);
    const { rows } = await ctx.db.pool.query<{ tag: string; n: string }>(
      "SELECT tag, sum(n) AS n FROM tag_counts WHERE business_id = $1 AND entity = 'suggestion' GROUP BY tag ORDER BY tag",
      [id],
    );
    expect(rows.map((r) => [r.tag, Number(r.n)])).toEqual([
      ['coffee', 1],
      ['music', 1],
      ['queue', 3],
    ]);
    const unscored = await ctx.db.pool.query<{ n: string }>(
      'SELECT sum(n) AS n FROM unscored_counts WHERE business_id = $1',
      [id],
    );
    expect(Number(unscored.rows[0]!.n)).toBe(1);
    await removeBusiness(ctx.db, id);
  });

  it('When one statement inserts many suggestions of two businesses, then every counter of each is exact and each row is one change', async () => {
    const [{ business: a }, { business: b }] = [await buildBusiness(ctx.db), await buildBusiness(ctx.db)];
    const [beforeA, beforeB] = [await changes(a.id), await changes(b.id)];
    const [targetA] = await insert(a.id, [{}]);
    const rows: Row[] = [
      { tags: ['coffee', 'queue'] },
      { tags: ['queue'], sentiment: 'neutral', lexicon: null, upvotes: 2 },
      { sentiment: 'neutral', lexicon: null },
      { tags: ['queue'], mergedInto: targetA! },
      { sentiment: 'negative', upvotes: 1 },
    ];
    const ids = rows.map(() => newId());
    // one statement over both businesses, as a move or a restore writes them
    await ctx.db.pool.query(
      /* sql */ `
      INSERT INTO suggestions (id, business_id, content, sentiment, sentiment_score, sentiment_lexicon, language,
        is_anonymous, tags, merged_into, merged_at, upvote_count)
      SELECT b.row_id, b.business_id, 'Inserted in bulk', r.sentiment::sentiment, 0.5, r.lexicon, 'en', true, r.tags,
        CASE WHEN b.business_id = $1 THEN r.merged_into END,
        CASE WHEN b.business_id = $1 AND r.merged_into IS NOT NULL THEN now() END, r.upvotes
      FROM jsonb_to_recordset($3::jsonb)
        AS r (id uuid, sentiment text, lexicon text, tags text[], merged_into uuid, upvotes int)
      CROSS JOIN LATERAL (VALUES ($1::uuid, r.id), ($2::uuid, gen_random_uuid())) AS b (business_id, row_id)
      ORDER BY r.id`,
      [a.id, b.id, recordset(rows, ids)],
    );
    expect(await changes(a.id)).toBe(beforeA + 1 + rows.length);
    expect(await changes(b.id)).toBe(beforeB + rows.length);
    await expectExact(a.id);
    await expectExact(b.id);
    await removeBusiness(ctx.db, a.id);
    await removeBusiness(ctx.db, b.id);
  });
});
