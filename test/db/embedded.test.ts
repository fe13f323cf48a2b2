import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DataDirInUseError, openEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { budgetFor } from '../support/budgets.js';
import { runTs } from '../support/processes.js';

const ignore = () => undefined;
const open: Database[] = [];
const dirs: string[] = [];

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'fbk-emb-'));
  dirs.push(dir);
  return dir;
}

/** test/support/socket-client.ts in a process of its own, and what it printed so far. */
function socketClient(env: Record<string, string>) {
  const child = runTs('test/support/socket-client.ts', [], env);
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { child, output: () => printed };
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

  it('When the owner and a client process query at once, then each statement runs with its own values', async () => {
    const dir = tempDir();
    const owner = await openEmbedded({ dataDir: dir, onPoolError: ignore });
    open.push(owner);
    await owner.pool.query('CREATE TABLE interleave_probe (who text, n int)');
    // The client's statements carry a value larger than the socket's buffers, as the seed command's
    // do: its Bind arrives in pieces, and the owner's statements must not run between its Parse and it.
    const ROUNDS = 8;
    const { child, output } = socketClient({ DATA_DIR: dir, ROUNDS: String(ROUNDS) });
    const exited = once(child, 'exit');
    const wrong: string[] = [];
    for (let i = 0; child.exitCode === null; i++) {
      const { rows } = await owner.pool
        .query<{ sum: number }>('SELECT $1::int + $2::int AS sum', [i, 1])
        .catch((err: unknown) => ({ rows: [{ error: String(err) }] }));
      if (JSON.stringify(rows) !== JSON.stringify([{ sum: i + 1 }])) wrong.push(JSON.stringify(rows));
    }
    await exited;
    expect(wrong).toEqual([]);
    expect(JSON.parse(output())).toEqual({ wrong: [] });
    const { rows } = await owner.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interleave_probe');
    expect(rows).toEqual([{ n: ROUNDS }]);
  });

  it('When a client process dies inside a transaction, then it is rolled back and the owner goes on', async () => {
    const dir = tempDir();
    const owner = await openEmbedded({ dataDir: dir, onPoolError: ignore });
    open.push(owner);
    await owner.pool.query('CREATE TABLE interleave_probe (who text, n int)');
    const { child, output } = socketClient({ DATA_DIR: dir, HOLD: '1' });
    const exited = once(child, 'exit');
    while (output() !== 'holding') await once(child.stdout!, 'data');
    // The owner waits for the client's transaction meanwhile: the session is the client's.
    const waiting = owner.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interleave_probe');
    child.kill('SIGKILL');
    await exited;
    expect((await waiting).rows).toEqual([{ n: 0 }]);
    await owner.pool.query(`INSERT INTO interleave_probe VALUES ('owner', 1)`);
    const { rows } = await owner.pool.query('SELECT who FROM interleave_probe');
    expect(rows).toEqual([{ who: 'owner' }]);
  });

  it('When the lock was left by a process that no longer exists, then it is taken over', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'owner.lock'), '999999999');
    const db = await openEmbedded({ dataDir: dir, inMemory: true, onPoolError: ignore });
    open.push(db);
    expect(await db.ping()).toBe(true);
  });
});
