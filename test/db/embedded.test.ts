import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DataDirInUseError, openEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { budgetFor } from '../support/budgets.js';

const ignore = () => undefined;
const open: Database[] = [];
const dirs: string[] = [];

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'fbk-emb-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const db of open.splice(0).reverse()) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Each test creates a database from nothing (initdb), the first one twice. */
describe('embedded database', { timeout: budgetFor({ initdbs: 2 }) }, () => {
  it('When data is written and the database reopened, then the data persisted in DATA_DIR', async () => {
    const dir = tempDir();
    const first = await openEmbedded({ dataDir: dir, onPoolError: ignore });
    await migrate(first.pool);
    await first.pool.query(`INSERT INTO businesses (id, name) VALUES ('0190c7f0-0000-7000-8000-000000000001', 'Kept')`);
    await first.close();
    const second = await openEmbedded({ dataDir: dir, onPoolError: ignore });
    open.push(second);
    const { rows } = await second.pool.query('SELECT name FROM businesses');
    expect(rows).toEqual([{ name: 'Kept' }]);
  });

  it('When a second owner opens a directory in use, then it gets a clear error, not a corrupted directory', async () => {
    const dir = tempDir();
    open.push(await openEmbedded({ dataDir: dir, inMemory: true, onPoolError: ignore }));
    const second = openEmbedded({ dataDir: dir, inMemory: true, onPoolError: ignore });
    await expect(second).rejects.toThrow(DataDirInUseError);
    await expect(second).rejects.toThrow(/is in use by process/);
  });

  it('When a client opens a directory in use, then it works through the owner socket and sees the same data', async () => {
    const dir = tempDir();
    const owner = await openEmbedded({ dataDir: dir, inMemory: true, onPoolError: ignore });
    open.push(owner);
    await owner.pool.query('CREATE TABLE shared_probe (v int)');
    await owner.pool.query('INSERT INTO shared_probe VALUES (42)');
    const client = await openEmbedded({ dataDir: dir, inMemory: true, allowClient: true, onPoolError: ignore });
    open.push(client);
    const { rows } = await client.pool.query('SELECT v FROM shared_probe');
    expect(rows).toEqual([{ v: 42 }]);
  });

  it('When the lock was left by a process that no longer exists, then it is taken over', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'owner.lock'), '999999999');
    const db = await openEmbedded({ dataDir: dir, inMemory: true, onPoolError: ignore });
    open.push(db);
    expect(await db.ping()).toBe(true);
  });
});
