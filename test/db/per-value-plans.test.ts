import { describe, expect, it } from 'vitest';
import { querySql } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { selectIssueRecords } from '../../src/issues/issue.repository.js';
import { selectSuggestionRecords } from '../../src/suggestions/suggestion.repository.js';
import { testDatabaseUrl, testMode } from '../support/database.js';

/**
 * Filters whose best plan depends on the value (how many rows carry a tag or a word) are planned for
 * their values every time, never with the generic plan a prepared statement settles on: for a tag on
 * one suggestion in twenty that plan read and sorted every match (querySql in src/db/database.ts).
 */
const page = { sort: 'created_at', order: 'desc', limit: 50, offset: 0 } as const;
const business = '00000000-0000-7000-8000-000000000001';

describe('lists planned for their values', () => {
  it('When a list filters by tag or searches, then it is planned per value; by priority alone, it is prepared', () => {
    for (const select of [selectSuggestionRecords, selectIssueRecords]) {
      expect(select(business, { tag: ['terrace'] }, page).perValue).toBe(true);
      expect(select(business, { q: 'coffee' }, page).perValue).toBe(true);
      expect(select(business, { priority: 'high', tag: ['terrace'] }, page).perValue).toBe(true);
      expect(select(business, {}, page).perValue).toBe(false);
    }
    // issues keep a btree per filter; suggestions read these filters' keys from the lookup GIN (0065),
    // whose right plan depends on how common the value is
    expect(selectIssueRecords(business, { priority: 'high' }, page).perValue).toBe(false);
    for (const filter of [
      { priority: 'high' },
      { status: 'rejected' },
      { sentiment: 'negative' },
      { lang: 'de' },
    ] as const) {
      expect(selectSuggestionRecords(business, filter, page).perValue).toBe(true);
    }
    expect(selectSuggestionRecords(business, { visibility: 'public' }, page).perValue).toBe(false);
  });

  describe.runIf(testMode() === 'postgres')('on PostgreSQL, whose statements are prepared', () => {
    it('When a statement is run per value, then the connection keeps no prepared statement of it, unlike the others', async () => {
      const db = openPostgres(testDatabaseUrl(), () => undefined, 1);
      try {
        const prepared = { sql: 'SELECT $1::int + 1 AS n', params: [1] };
        const perValue = { sql: 'SELECT $1::int + 2 AS n', params: [1], perValue: true };
        for (let run = 0; run < 6; run++) {
          expect((await querySql<{ n: number }>(db.pool, prepared)).rows).toEqual([{ n: 2 }]);
          expect((await querySql<{ n: number }>(db.pool, perValue)).rows).toEqual([{ n: 3 }]);
        }
        const { rows } = await db.pool.query<{ statement: string; runs: number }>(
          `SELECT statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements ORDER BY statement`,
        );
        expect(rows).toEqual([{ statement: prepared.sql, runs: 6 }]);
      } finally {
        await db.close();
      }
    });
  });
});
