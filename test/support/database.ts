import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { openEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';

export const testMode = (): 'embedded' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded');

/** Refuses any database whose name does not say it is for tests: a suite must never touch real data. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = new URL(url).pathname.slice(1);
  if (!/test/i.test(name))
    throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
  return url;
}

/**
 * A migrated database for one test file: a fresh in-memory PGlite served on its own socket, or the
 * shared PostgreSQL test database (tests isolate themselves by building their own businesses).
 */
export async function openTestDatabase(): Promise<Database> {
  const ignore = () => undefined;
  if (testMode() === 'postgres') {
    const db = openPostgres(testDatabaseUrl(), ignore, 5);
    await migrate(db.pool);
    return db;
  }
  return openEmbeddedTestDatabase();
}

/** A fresh in-memory PGlite from the run's migrated template, whatever database the run tests. */
export async function openEmbeddedTestDatabase(): Promise<Database> {
  const ignore = () => undefined;
  const dir = mkdtempSync(join(tmpdir(), 'fbk-'));
  const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
  const db = await openEmbedded({ dataDir: dir, inMemory: true, loadDataDir: template, onPoolError: ignore });
  await migrate(db.pool);
  return {
    ...db,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated database with no business in it, for the first run's tests: a fresh in-memory PGlite, or
 * on PostgreSQL a database of the test's own beside the shared one (dropped on close), since the
 * shared one holds every other file's businesses.
 */
export async function openEmptyTestDatabase(): Promise<Database> {
  if (testMode() !== 'postgres') return openEmbeddedTestDatabase();
  const ignore = () => undefined;
  const shared = new URL(testDatabaseUrl());
  const name = `${shared.pathname.slice(1)}_empty_${process.pid}_${Date.now()}`;
  const admin = openPostgres(shared.toString(), ignore, 1);
  await admin.pool.query(`CREATE DATABASE ${name}`);
  const own = new URL(shared);
  own.pathname = `/${name}`;
  const db = openPostgres(own.toString(), ignore, 5);
  await migrate(db.pool);
  return {
    ...db,
    async close() {
      await db.close();
      await admin.pool.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.close();
    },
  };
}
