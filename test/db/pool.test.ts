import { describe, expect, it, vi } from 'vitest';
import { createPool, withTransaction } from '../../src/db/database.js';
import { openTestDatabase, testMode } from '../support/database.js';

describe.runIf(testMode() === 'postgres')('pool resilience (PostgreSQL)', () => {
  it('When the backend of a checked-out connection is terminated, then the error is reported, never thrown', async () => {
    const reported: Error[] = [];
    const pool = createPool({ connectionString: process.env.TEST_DATABASE_URL, max: 2 }, (err) => reported.push(err));
    try {
      const victim = await pool.connect();
      const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      // without the listener, the client's 'error' here is an uncaught exception that fails the run
      await vi.waitFor(() => expect(reported.length).toBeGreaterThan(0), { timeout: 5_000 });
      victim.release(true);
      expect((await pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    } finally {
      await pool.end();
    }
  });
});

describe('transactions', () => {
  it('When a statement inside a transaction failed and its error was swallowed, then the commit fails instead of reporting success', async () => {
    const db = await openTestDatabase();
    try {
      await expect(
        withTransaction(db.pool, async (tx) => {
          await tx.query('SELECT 1/0').catch(() => undefined);
          return 'done';
        }),
      ).rejects.toThrow(/rolled back at its commit/);
      expect(await withTransaction(db.pool, async (tx) => (await tx.query('SELECT 1 AS one')).rows[0])).toEqual({
        one: 1,
      });
    } finally {
      await db.close();
    }
  });
});
