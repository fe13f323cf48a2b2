import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFor } from '../support/budgets.js';
import { createApp } from '../../src/app.js';
import { backup, BackupError } from '../../src/db/backup.js';
import { restore } from '../../src/db/restore.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { entityActivity, latestActivity } from '../../src/analytics/analytics.repository.js';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createRateLimiters, type RateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger } from '../support/app.js';
import { openEmbeddedTestDatabase, testDatabaseUrl, testMode } from '../support/database.js';
import { buildTag, buildTenant } from '../support/factories.js';
import sharp from 'sharp';
import { setLogo } from '../../src/businesses/logo.service.js';

/**
 * `admin backup` and `admin restore` in one process: from the embedded database (where the move
 * starts) into a new, empty one: PostgreSQL when the run tests it, embedded otherwise.
 */
const limiters: RateLimiters[] = [];
const closing: (() => Promise<void>)[] = [];
const dir = mkdtempSync(join(tmpdir(), 'backup-test-'));
let counter = 0;

function appOn(db: Database) {
  const { logger } = capturingLogger();
  const rateLimiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
  limiters.push(rateLimiters);
  return supertest(createApp({ db, logger, rateLimiters }));
}

async function emptyTarget(): Promise<Database> {
  if (testMode() === 'postgres') {
    const url = new URL(testDatabaseUrl());
    const name = `test_restore_${process.pid}_${Date.now()}_${counter++}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    url.pathname = `/${name}`;
    const db = openPostgres(url.toString(), () => undefined, 3);
    closing.push(async () => {
      await db.close();
      const again = new pg.Client({ connectionString: testDatabaseUrl() });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    });
    return db;
  }
  // Migrated but holding no row: empty for a restore (a new data directory is the process test's).
  const db = await openEmbeddedTestDatabase();
  closing.push(() => db.close());
  return db;
}

const fileFor = (label: string) => join(dir, `${label}-${counter++}.backup.gz`);
const lines = (file: string) => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');

let source: Database;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let api: ReturnType<typeof appOn>;
const suggestionIds: string[] = [];

beforeAll(async () => {
  source = await openEmbeddedTestDatabase();
  closing.push(() => source.close());
  api = appOn(source);
  tenant = await buildTenant(source);
  await buildTag(source, tenant.business.id, { name: 'menu' });
  for (const content of ['More vegan options', 'A quieter corner', 'Open on Sundays']) {
    const res = await api
      .post('/api/v1/suggestions')
      .set('X-API-Key', tenant.write)
      .send({ content, customer_email: 'guest@example.test', tags: ['menu'] });
    expect(res.status).toBe(201);
    suggestionIds.push(res.body.id as string);
  }
  const vote = await api
    .post(`/api/v1/suggestions/${suggestionIds[0]}/votes`)
    .set('X-API-Key', tenant.write)
    .send({ voter: { email: 'voter@example.test' } });
  expect(vote.status).toBe(201);
  const comment = await api
    .post(`/api/v1/suggestions/${suggestionIds[1]}/comments`)
    .set('X-API-Key', tenant.write)
    .send({ content: 'We are on it' });
  expect(comment.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
  for (const close of closing.reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a client sees of the tenant: the lists, one suggestion, its comments, the counts, the feed. */
async function seen(client: ReturnType<typeof appOn>) {
  const get = async (path: string) => {
    const res = await client.get(path).set('X-API-Key', tenant.read);
    expect(res.status, path).toBe(200);
    return res.body as unknown;
  };
  return {
    list: await get('/api/v1/suggestions?limit=100'),
    one: await get(`/api/v1/suggestions/${suggestionIds[0]}`),
    comments: await get(`/api/v1/suggestions/${suggestionIds[1]}/comments`),
    filtered: await get('/api/v1/suggestions?tag=menu&sort=upvote_count'),
    feed: await get('/api/v1/events?limit=100'),
  };
}

describe('backup and restore', { timeout: budgetFor({ initdbs: 1 }) }, () => {
  it('When a backup is restored into a new database, then every client sees the same answers there, keys work, and new writes take fresh ids', async () => {
    const before = await seen(api);
    const file = fileFor('round-trip');
    const taken = await backup(source.pool, file);
    expect(taken.rows).toBeGreaterThan(10);
    expect(JSON.parse(lines(file)[0]!)).toMatchObject({ format: 'feedback-backup', version: 1, schema: taken.schema });

    const target = await emptyTarget();
    const restored = await restore(target.pool, file);
    expect(restored).toMatchObject({ schema: taken.schema, tables: taken.tables, rows: taken.rows });
    const moved = appOn(target);
    const after = await seen(moved);
    // The feed's cursor names a transaction id: the same where the ids were kept, renumbered otherwise.
    if (restored.feed_cursors === 'restart') {
      expect((after.feed as { next_cursor: string }).next_cursor).not.toBe(
        (before.feed as { next_cursor: string }).next_cursor,
      );
      (after.feed as { next_cursor: string }).next_cursor = (before.feed as { next_cursor: string }).next_cursor;
    }
    expect(after).toEqual(before);

    const created = await moved
      .post('/api/v1/suggestions')
      .set('X-API-Key', tenant.write)
      .send({ content: 'After the move' });
    expect(created.status).toBe(201);
    expect(suggestionIds).not.toContain(created.body.id);
    const listed = await moved.get('/api/v1/suggestions').set('X-API-Key', tenant.read);
    expect(listed.body.total).toBe(4);

    await expect(restore(target.pool, file)).rejects.toThrow(/the database is not empty \(.* hold rows\)/);
  });

  it('When the business has a logo, then its bytes (bytea, a table of their own) come back byte for byte', async () => {
    const image = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#1d5e34' } })
      .png()
      .toBuffer();
    const logo = await setLogo(source.pool, tenant.business.id, null, image);
    const stored = async (db: Database) =>
      (
        await db.pool.query<{ hash: string; body: Buffer }>(
          'SELECT hash, body FROM business_logos WHERE business_id = $1',
          [tenant.business.id],
        )
      ).rows[0];
    const file = fileFor('logo');
    await backup(source.pool, file);
    const target = await emptyTarget();
    await restore(target.pool, file);
    const before = await stored(source);
    const after = await stored(target);
    expect(after?.hash).toBe(logo.hash);
    expect(Buffer.isBuffer(after?.body) && after.body.equals(before!.body)).toBe(true);
  });

  it('When a backup file is cut short, damaged or not a backup, then the restore says so and leaves the database empty for the next try', async () => {
    const file = fileFor('whole');
    await backup(source.pool, file);
    const all = lines(file);
    const cut = fileFor('cut');
    // Cut inside the suggestions table: its end line is missing.
    const inside = all.findIndex((line) => line.startsWith('{"@table":"suggestions"')) + 2;
    writeFileSync(cut, gzipSync(all.slice(0, inside).join('\n') + '\n'));
    const noEnd = fileFor('no-end');
    writeFileSync(noEnd, gzipSync(all.slice(0, -1).join('\n') + '\n'));
    const miscounted = fileFor('miscounted');
    writeFileSync(miscounted, gzipSync(all.filter((_, i) => i !== inside - 1).join('\n') + '\n'));
    const notGzip = fileFor('plain');
    writeFileSync(notGzip, 'id,content\n1,hello\n');

    const target = await emptyTarget();
    await expect(restore(target.pool, cut)).rejects.toThrow(
      'the backup ends inside table suggestions: the file is cut short',
    );
    await expect(restore(target.pool, noEnd)).rejects.toThrow('the backup has no end: the file is cut short');
    await expect(restore(target.pool, miscounted)).rejects.toThrow(
      /table suggestions holds \d+ rows in the backup, its end line says \d+/,
    );
    await expect(restore(target.pool, notGzip)).rejects.toThrow(BackupError);
    await expect(restore(target.pool, join(dir, 'missing.gz'))).rejects.toThrow('cannot read');
    // Nothing of the failed tries stayed behind: the whole file still goes in.
    expect((await restore(target.pool, file)).rows).toBe(all.length - 0 - countMarkers(all));
  });

  it('When the backup comes from a cluster whose transaction ids run ahead of the new one, then the feed is renumbered below new writes and a cursor from before the move is a 410', async () => {
    const feed = await api.get('/api/v1/events?limit=2').set('X-API-Key', tenant.read);
    expect(feed.status).toBe(200);
    const oldCursor = feed.body.next_cursor as string;
    // What an older, busier cluster's ids look like next to a new one's.
    await source.pool.query(
      `UPDATE events SET xid = ((xid::text)::bigint + 4000000000)::text::xid8 WHERE business_id = $1`,
      [tenant.business.id],
    );
    const file = fileFor('ahead');
    try {
      await backup(source.pool, file);
    } finally {
      await source.pool.query(
        `UPDATE events SET xid = ((xid::text)::bigint - 4000000000)::text::xid8 WHERE business_id = $1`,
        [tenant.business.id],
      );
    }
    const target = await emptyTarget();
    expect((await restore(target.pool, file)).feed_cursors).toBe('restart');
    const moved = appOn(target);

    const stale = await moved.get(`/api/v1/events?after=${oldCursor}`).set('X-API-Key', tenant.read);
    expect(stale.status).toBe(410);
    expect(stale.body).toMatchObject({
      code: 'CURSOR_EXPIRED',
      message: expect.stringContaining('restored from a backup'),
    });

    const first = await moved.get('/api/v1/events?limit=2').set('X-API-Key', tenant.read);
    expect(first.status).toBe(200);
    const created = await moved
      .post('/api/v1/suggestions')
      .set('X-API-Key', tenant.write)
      .send({ content: 'New after the move' });
    expect(created.status).toBe(201);
    // The feed lists a write once no transaction that began before it is still open: on a shared,
    // busy cluster that can be a moment after its commit. Bounded wait (10 s) until it is listed.
    for (let tries = 0; tries < 100; tries++) {
      const listed = await moved.get('/api/v1/events?limit=100').set('X-API-Key', tenant.read);
      if (JSON.stringify(listed.body.data).includes(created.body.id as string)) break;
      await sleep(100);
    }
    const rest = await moved
      .get(`/api/v1/events?limit=100&after=${first.body.next_cursor}`)
      .set('X-API-Key', tenant.read);
    expect(rest.status).toBe(200);
    const all = [...first.body.data, ...rest.body.data] as { type: string; data: { id?: string } }[];
    const fromStart = await moved.get('/api/v1/events?limit=100').set('X-API-Key', tenant.read);
    expect(all).toEqual(fromStart.body.data);
    // The write made after the move comes last, after every restored event.
    expect(all.at(-1)).toMatchObject({ type: 'suggestion.created' });
    expect(JSON.stringify(all.at(-1))).toContain(created.body.id as string);
  });
});

describe('A backup taken before activity and events shared a row (0069_one_record_row.sql)', () => {
  // An older schema's backup restores into a blank database only: the embedded one is migrated.
  it.skipIf(testMode() !== 'postgres')(
    'When it is restored, then every activity row is read as before, in its order, and the feed keeps its event',
    async () => {
      const old = await emptyTarget();
      await migrate(
        old.pool,
        readMigrations().filter((m) => m.version < '0069'),
      );
      const business = crypto.randomUUID();
      const entity = crypto.randomUUID();
      await old.pool.query(`INSERT INTO businesses (id, name) VALUES ($1, 'Before the one row')`, [business]);
      await old.pool.query(
        `INSERT INTO activity (business_id, type, entity_type, entity_id, data, created_at)
         SELECT $1, t.type, 'suggestion', $2, jsonb_build_object('n', t.n), now() - make_interval(mins => 10 - t.n)
         FROM (VALUES (1, 'suggestion.created'), (2, 'suggestion.voted'), (3, 'suggestion.updated')) AS t (n, type)`,
        [business, entity],
      );
      await old.pool.query(
        `INSERT INTO events (id, business_id, type, data) VALUES ($1, $2, 'suggestion.created', '{"object": {}}')`,
        [crypto.randomUUID(), business],
      );
      const file = fileFor('before-0069');
      const taken = await backup(old.pool, file);
      expect(taken.schema < '0069').toBe(true);

      const target = await emptyTarget();
      const restored = await restore(target.pool, file);
      expect(restored.migrated_after).toEqual(expect.arrayContaining(['0069_one_record_row']));
      const history = await entityActivity(target.pool, business, 'suggestion', entity, 100);
      expect(history.map((a) => [a.type, a.data])).toEqual([
        ['suggestion.created', { n: 1 }],
        ['suggestion.voted', { n: 2 }],
        ['suggestion.updated', { n: 3 }],
      ]);
      const recent = await latestActivity(target.pool, business, 20);
      expect(recent.map((a) => a.type)).toEqual(['suggestion.updated', 'suggestion.voted', 'suggestion.created']);
      const { rows } = await target.pool.query<{ feed: number }>(
        `SELECT count(*)::int AS feed FROM events WHERE business_id = $1 AND type IS NOT NULL`,
        [business],
      );
      expect(rows[0]).toEqual({ feed: 1 });
    },
  );
});

function countMarkers(all: string[]): number {
  return all.filter((line) => line.startsWith('{"@') || line.startsWith('{"format"')).length;
}
