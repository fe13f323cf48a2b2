import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { EmbeddedMaintenance, maintainTables } from '../../src/db/embedded-maintenance.js';
import { seedBusiness } from '../../src/seed/seed.service.js';
import { openTestDatabase, testMode } from '../support/database.js';
import { ORDINARY_MS } from '../support/budgets.js';
import { buildBusiness } from '../support/factories.js';

/**
 * The embedded database's stand-in for autovacuum. Embedded only: on PostgreSQL autovacuum does
 * this, and the shared test database's counters move with every other test file.
 */
describe.runIf(testMode() === 'embedded')('embedded database maintenance', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  const tuples = async (table: string) =>
    Number(
      (await db.pool.query<{ n: number }>('SELECT reltuples AS n FROM pg_class WHERE relname = $1', [table])).rows[0]!
        .n,
    );
  const listPlan = async (businessId: string) =>
    (
      await db.pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT * FROM suggestions WHERE business_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`,
        [businessId],
      )
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');

  it('When many rows arrive, then their table is analyzed, the list reads its newest rows from the index, and a second pass has nothing to do', async () => {
    const { business } = await buildBusiness(db);
    await maintainTables(db.pool); // whatever the template and the factories left
    await seedBusiness(db.pool, business.id, { suggestions: 2_000, issues: 0, comments: 0 });
    // Statistics that still describe a small table: the planner reads and sorts the whole business.
    expect(await listPlan(business.id)).toMatch(/Sort/);

    const done = await maintainTables(db.pool);
    expect([...done.analyzed, ...done.vacuumed]).toContain('public.suggestions');
    expect(await tuples('suggestions')).toBeGreaterThanOrEqual(2_000);
    // With statistics the planner knows the business is large: no sort of all its rows.
    const plan = await listPlan(business.id);
    expect(plan).toMatch(/Index Scan Backward using suggestions_created_idx/);
    expect(plan).not.toMatch(/Sort/);

    const again = await maintainTables(db.pool);
    expect([...again.analyzed, ...again.vacuumed]).not.toContain('public.suggestions');
  });

  it('When many rows of a table are updated, then it is vacuumed, not only analyzed', async () => {
    const { business } = await buildBusiness(db);
    await seedBusiness(db.pool, business.id, { suggestions: 1_000, issues: 0, comments: 0 });
    await maintainTables(db.pool);
    await db.pool.query(`UPDATE suggestions SET priority = 'low' WHERE business_id = $1`, [business.id]);

    const done = await maintainTables(db.pool);
    expect(done.vacuumed).toContain('public.suggestions');
    expect(done.analyzed).not.toContain('public.suggestions');
  });

  it(
    'When a server starts on the embedded database, then it analyzes everything at once and then maintains on its interval until stopped',
    { timeout: ORDINARY_MS * 2 },
    async () => {
      const logger = pino({ level: 'silent' });
      const info = vi.spyOn(logger, 'info');
      const maintenance = new EmbeddedMaintenance(db.pool, logger, 10);
      maintenance.start();
      // A pass takes as long as the machine lets it: wait as long as an ordinary test may take.
      const patiently = { timeout: ORDINARY_MS / 2, interval: 20 };
      await vi.waitFor(() => expect(info).toHaveBeenCalledWith('embedded database analyzed'), patiently);

      const { business } = await buildBusiness(db);
      await seedBusiness(db.pool, business.id, { suggestions: 500, issues: 0, comments: 0 });
      await vi.waitFor(
        () =>
          expect(info).toHaveBeenCalledWith(
            expect.objectContaining({ analyzed: expect.arrayContaining(['public.suggestions']) }),
            'embedded database maintained',
          ),
        patiently,
      );
      await maintenance.stop();
      const calls = info.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(info.mock.calls.length).toBe(calls);
    },
  );
});
