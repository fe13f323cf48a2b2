import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { budgetFor } from '../support/budgets.js';
import { testDatabaseUrl, testMode } from '../support/database.js';
import { cliJson, databaseEnv, runCli, startServer } from '../support/processes.js';

interface Listed {
  total: number;
  data: { id: string; content: string; upvote_count: number }[];
}
interface Feed {
  data: { id: string; type: string }[];
  next_cursor: string | null;
}

/**
 * Where the restore goes: a new PostgreSQL database beside the test one when there is a PostgreSQL to
 * test against (the move the docs describe), a new embedded data directory otherwise.
 */
async function emptyTarget(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const url = new URL(testDatabaseUrl());
    const name = `test_restore_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString(), DATA_DIR: '', WEBHOOK_DELIVERY: 'false' },
      async drop() {
        const again = new pg.Client({ connectionString: testDatabaseUrl() });
        await again.connect();
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await again.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'restore-'));
  return {
    env: { DATABASE_URL: '', DATA_DIR: dir },
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

// The source is the embedded database (the move starts there); the PostgreSQL run has nothing to add.
describe.runIf(testMode() === 'embedded')('backup while serving, restore, serve again', () => {
  it(
    'When a backup is taken while clients write and restored into a new database, then every write acknowledged before it is served there with the same key and session, counts exact, and old feed cursors still work or are a 410',
    { timeout: budgetFor({ serverStarts: 2, cliRuns: 6 }) },
    async () => {
      // Limits stay out of the way: the writer below may be quick.
      const limits = { RATE_LIMIT_PER_MINUTE: '100000' };
      const env = { ...databaseEnv(), ...limits };
      const email = `owner-${Date.now()}@x.test`;
      const password = 'a long backup passphrase';
      const business = await cliJson<{ id: string }>(
        ['business', 'create', '--name', 'Café Move', '--owner-email', email, '--owner-password', password],
        env,
      );
      const key = await cliJson<{ key: string }>(
        ['key', 'create', '--business', business.id, '--name', 'Till', '--scope', 'write'],
        env,
      );
      const dir = mkdtempSync(join(tmpdir(), 'backup-'));
      const file = join(dir, 'feedback.backup.gz');
      const target = await emptyTarget();
      onTestFinished(async () => {
        rmSync(dir, { recursive: true, force: true });
        await target.drop();
      });

      const source = await startServer(env);
      onTestFinished(async () => {
        await source.stop('SIGKILL');
      });
      const api = (baseUrl: string, path: string, init: RequestInit = {}) =>
        fetch(`${baseUrl}${path}`, {
          ...init,
          headers: { 'X-API-Key': key.key, 'Content-Type': 'application/json', ...init.headers },
        });
      const create = async (baseUrl: string, content: string) => {
        const res = await api(baseUrl, '/api/v1/suggestions', { method: 'POST', body: JSON.stringify({ content }) });
        return res.status === 201 ? ((await res.json()) as { id: string }).id : null;
      };
      for (let i = 0; i < 10; i++) expect(await create(source.baseUrl, `Before the backup ${i}`)).not.toBeNull();
      const login = await fetch(`${source.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const { token } = (await login.json()) as { token: string };
      const feed = (await (await api(source.baseUrl, '/api/v1/events?limit=5')).json()) as Feed;
      expect(feed.data).toHaveLength(5);

      // Clients go on writing, bounded, while the backup is taken through the running server's socket.
      const acknowledged: string[] = [];
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing && i < 200; i++) {
          const id = await create(source.baseUrl, `During the backup ${i}`);
          if (id) acknowledged.push(id);
        }
      })();
      while (acknowledged.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      const ackedBeforeBackup = acknowledged.length;
      const taken = await cliJson<{ rows: number; tables: number; schema: string }>(['backup', '--out', file], env);
      const ackedAfterBackup = acknowledged.length;
      writing = false;
      await writer;
      expect(taken.tables).toBeGreaterThan(20);
      // The server kept answering while the backup was written.
      const served = (await (await api(source.baseUrl, '/api/v1/suggestions?limit=1')).json()) as Listed;
      expect(served.data).toHaveLength(1);
      expect(served.total).toBe(10 + acknowledged.length);
      await source.stop();

      // A second backup never overwrites the first.
      const again = await runCli(['backup', '--out', file], env);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists: choose another file');

      const restored = await cliJson<{ rows: number; feed_cursors: string }>(['restore', '--from', file], target.env);
      expect(restored.rows).toBe(taken.rows);
      const twice = await runCli(['restore', '--from', file], target.env);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('the database is not empty');

      const moved = await startServer({ ...target.env, ...limits });
      onTestFinished(async () => {
        await moved.stop('SIGKILL');
      });
      const all: Listed['data'] = [];
      let total: number;
      for (let page = 1; ; page++) {
        const answer = await api(moved.baseUrl, `/api/v1/suggestions?limit=100&page=${page}`);
        expect(answer.status).toBe(200);
        const listed = (await answer.json()) as Listed;
        total = listed.total;
        all.push(...listed.data);
        if (listed.data.length < 100) break;
      }
      // Exact: the total counts what is listed; every write answered before the backup began is
      // there, and the snapshot holds a prefix of the writes that overlapped it, nothing after them.
      expect(all).toHaveLength(total);
      const ids = new Set(all.map((s) => s.id));
      for (const id of acknowledged.slice(0, ackedBeforeBackup)) expect(ids.has(id)).toBe(true);
      expect(total).toBeGreaterThanOrEqual(10 + ackedBeforeBackup);
      expect(total).toBeLessThanOrEqual(10 + ackedAfterBackup);
      const kept = acknowledged.filter((id) => ids.has(id));
      expect(kept).toEqual(acknowledged.slice(0, kept.length));

      // The same session, and writes go on with fresh ids.
      const overview = await fetch(`${moved.baseUrl}/businesses/${business.id}/analytics/overview`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(overview.status).toBe(200);
      const after = await create(moved.baseUrl, 'After the move');
      expect(after).not.toBeNull();
      expect(ids.has(after!)).toBe(false);

      // A cursor from before the move goes on, or is a 410 saying to restart; from the start, all is there.
      const resumed = await api(moved.baseUrl, `/api/v1/events?limit=100&after=${feed.next_cursor}`);
      if (restored.feed_cursors === 'kept') {
        expect(resumed.status).toBe(200);
        const next = (await resumed.json()) as Feed;
        expect(next.data.map((e) => e.id)).not.toContain(feed.data[0]!.id);
      } else {
        expect(restored.feed_cursors).toBe('restart');
        expect(resumed.status).toBe(410);
        expect(((await resumed.json()) as { code: string }).code).toBe('CURSOR_EXPIRED');
      }
      const seen = new Set<string>();
      let cursor = '';
      for (let pages = 0; pages < 50; pages++) {
        const answer = await api(moved.baseUrl, `/api/v1/events?limit=100&after=${cursor}`);
        expect(answer.status).toBe(200);
        const page = (await answer.json()) as Feed;
        for (const event of page.data) seen.add(event.id);
        cursor = page.next_cursor ?? cursor;
        if (page.data.length < 100) break;
      }
      for (const event of feed.data) expect(seen.has(event.id)).toBe(true);
      expect(seen.size).toBe(total + 1);
    },
  );
});
