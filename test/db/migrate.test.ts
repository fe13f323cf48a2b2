import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { openTestDatabase } from '../support/database.js';

describe('migrations', () => {
  it('When instances migrate at the same time, then each file is applied exactly once', async () => {
    const db = await openTestDatabase();
    const version = `9999_probe_${process.pid}`;
    const table = `migration_probe_${process.pid}`;
    try {
      const probe = { version, sql: `CREATE TABLE ${table} (n int); INSERT INTO ${table} VALUES (1);` };
      const results = await Promise.all([1, 2, 3].map(() => migrate(db.pool, [...readMigrations(), probe])));
      expect(results.flat().filter((v) => v === version)).toHaveLength(1);
      const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect(rows[0].n).toBe(1);
    } finally {
      await db.pool.query(`DROP TABLE IF EXISTS ${table}`);
      await db.pool.query('DELETE FROM schema_migrations WHERE version = $1', [version]);
      await db.close();
    }
  });

  it('When a migration fails, then it is rolled back, not recorded, and the error names it', async () => {
    const db = await openTestDatabase();
    const version = `9998_broken_${process.pid}`;
    try {
      const broken = { version, sql: `CREATE TABLE half_done_${process.pid} (n int); SELECT no_such_function();` };
      await expect(migrate(db.pool, [...readMigrations(), broken])).rejects.toThrow(version);
      const { rows } = await db.pool.query(
        `SELECT to_regclass('half_done_${process.pid}') AS t,
                (SELECT count(*)::int FROM schema_migrations WHERE version = $1) AS n`,
        [version],
      );
      expect(rows[0]).toEqual({ t: null, n: 0 });
    } finally {
      await db.close();
    }
  });

  it('When the migration files are read, then they are numbered and in order', () => {
    const versions = readMigrations().map((m) => m.version);
    expect(versions[0]).toBe('0001_init');
    expect([...versions].sort()).toEqual(versions);
  });
});
