import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { insertRecords } from '../../src/outbox/outbox.repository.js';
import { newId } from '../../src/shared/ids.js';
import { useTestApp } from '../support/app.js';
import { testMode } from '../support/database.js';
import { buildTenant, removeBusiness } from '../support/factories.js';

/**
 * Suggestions, votes and events have no foreign key to their business (migrations/0070, 0074: a write
 * takes no lock on the business row); the business's deletion removes them by trigger, and a write racing the
 * deletion either commits before it (and is deleted with it) or fails.
 */
const ctx = useTestApp();
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const OWN_TABLES = [
  'suggestions',
  'votes',
  'suggestion_ranks',
  'suggestion_counts',
  'created_counts',
  'change_counts',
  'unscored_counts',
  'events',
];

async function rowsLeft(businessId: string, suggestionIds: string[] = []): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of OWN_TABLES) {
    const { rows } = await ctx.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`,
      [businessId],
    );
    left[table] = rows[0]!.n;
  }
  const { rows } = await ctx.db.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM votes WHERE suggestion_id = ANY($1::uuid[]) OR counted_for = ANY($1::uuid[])',
    [suggestionIds],
  );
  left['votes of its suggestions'] = rows[0]!.n;
  return left;
}

const nothingLeft = () => Object.fromEntries([...OWN_TABLES, 'votes of its suggestions'].map((t) => [t, 0]));

async function create(t: Tenant, content: string): Promise<string> {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const insertSql = /* sql */ `INSERT INTO suggestions (id, business_id, content, sentiment, sentiment_score, is_anonymous)
  VALUES ($1, $2, 'Written while the business goes', 'neutral', 0, true)`;

/** Resolves once the backend `pid` waits for a lock. */
async function waitingForLock(pid: number) {
  for (;;) {
    const { rows } = await ctx.db.pool.query<{ w: string | null }>(
      'SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1',
      [pid],
    );
    if (rows[0]?.w === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pidOf = async (client: pg.PoolClient) =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

describe('deleting a business', () => {
  it('When a business with suggestions, votes, a merge and unscored rows is deleted, then none of its rows is left', async () => {
    const t = await buildTenant(ctx.db);
    const ids = [
      await create(t, 'The coffee is great and the staff are friendly'),
      await create(t, 'Oat milk'),
      await create(t, 'Oat milk please'),
    ];
    for (const [i, id] of ids.entries()) {
      const res = await ctx
        .request()
        .post(`/api/v1/suggestions/${id}/votes`)
        .set('X-API-Key', t.write)
        .send({ voter: { external_id: `v${i}` } });
      expect(res.status, res.text).toBe(201);
    }
    const merged = await ctx
      .request()
      .post(`/api/v1/suggestions/${ids[1]}/merge`)
      .set('X-API-Key', t.write)
      .send({ source_ids: [ids[2]] });
    expect(merged.status, merged.text).toBe(200);
    const before = await rowsLeft(t.business.id, ids);
    expect(before.suggestions).toBe(3);
    expect(before.votes).toBe(3);
    expect(before.unscored_counts).toBeGreaterThan(0);

    await removeBusiness(ctx.db, t.business.id);
    expect(await rowsLeft(t.business.id, ids)).toEqual(nothingLeft());
  });

  it('When a business with trimmed and activity-only events is deleted, then each statement on events reads a partial index and none is left', async () => {
    const t = await buildTenant(ctx.db);
    const id = await create(t, 'Longer opening hours on Sundays please');
    // an activity without an event (a key's), and the create's row trimmed of its event
    await insertRecords(
      ctx.db.pool,
      t.business.id,
      {
        type: 'api_key.created',
        entityType: 'api_key',
        entityId: newId(),
        actorUserId: null,
        actorApiKeyId: null,
        actorQrCodeId: null,
      },
      null,
    );
    // trimmed as the purge trims (deleteOldEvents; the purge itself, which walks every business of the
    // shared database, is test/api/events-retention.test.ts's)
    await ctx.db.pool.query(
      `UPDATE events
       SET activity_type = coalesce(activity_type, type), id = NULL, type = NULL, data = NULL, object_shape = NULL,
         object_values = NULL
       WHERE business_id = $1 AND entity_id IS NOT NULL AND type IS NOT NULL`,
      [t.business.id],
    );
    const { rows: kinds } = await ctx.db.pool.query<{ feed: number; activity: number }>(
      `SELECT count(*) FILTER (WHERE type IS NOT NULL)::int AS feed,
         count(*) FILTER (WHERE type IS NULL AND entity_id IS NOT NULL)::int AS activity
       FROM events WHERE business_id = $1`,
      [t.business.id],
    );
    expect(kinds[0]!.feed).toBe(0);
    expect(kinds[0]!.activity).toBeGreaterThanOrEqual(2);

    // delete_business_rows' own statements on events (0074, 0077), each through its part's partial index
    const { rows: fn } = await ctx.db.pool.query<{ def: string }>(
      `SELECT pg_get_functiondef('delete_business_rows'::regproc) AS def`,
    );
    const statements = fn[0]!.def.match(/DELETE FROM events WHERE [^;]*/g) ?? [];
    expect(statements).toHaveLength(2);
    const client = await ctx.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      for (const statement of statements) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${statement.replace('OLD.id', `'${t.business.id}'::uuid`)}`,
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, statement).toMatch(/Index (Only )?Scan using events_(feed|activity|entity)_idx|Bitmap Index Scan/);
        expect(plan, statement).not.toMatch(/Seq Scan/);
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }

    await removeBusiness(ctx.db, t.business.id);
    expect(await rowsLeft(t.business.id, [id])).toEqual(nothingLeft());
  });

  it.skipIf(testMode() !== 'postgres')(
    'When a create is in flight as its business is deleted, then the deletion waits for it and removes its row too',
    async () => {
      const t = await buildTenant(ctx.db);
      await create(t, 'First');
      const writer = await ctx.db.pool.connect();
      const deleter = await ctx.db.pool.connect();
      try {
        const deleterPid = await pidOf(deleter);
        await writer.query('BEGIN');
        await writer.query(insertSql, [newId(), t.business.id]);
        const deleting = deleter.query('DELETE FROM businesses WHERE id = $1', [t.business.id]);
        await waitingForLock(deleterPid);
        await writer.query('COMMIT');
        await deleting;
      } finally {
        writer.release();
        deleter.release();
      }
      expect(await rowsLeft(t.business.id)).toEqual(nothingLeft());
    },
  );

  it.skipIf(testMode() !== 'postgres')(
    'When a create comes while its business is being deleted, then it fails once the deletion commits and leaves no row',
    async () => {
      const t = await buildTenant(ctx.db);
      await create(t, 'First');
      const deleter = await ctx.db.pool.connect();
      const writer = await ctx.db.pool.connect();
      try {
        const writerPid = await pidOf(writer);
        await deleter.query('BEGIN');
        await deleter.query('DELETE FROM businesses WHERE id = $1', [t.business.id]);
        const writing = writer.query(insertSql, [newId(), t.business.id]).then(
          () => null,
          (error: { code?: string }) => error.code,
        );
        await waitingForLock(writerPid);
        await deleter.query('COMMIT');
        expect(await writing).toBe('23503');
      } finally {
        writer.release();
        deleter.release();
      }
      expect(await rowsLeft(t.business.id)).toEqual(nothingLeft());
    },
  );
});
