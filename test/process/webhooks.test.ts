import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { openBackgroundDatabase } from '../../src/db/open.js';
import { WebhookWorker } from '../../src/webhooks/webhook.worker.js';
import { capturingLogger, useOtherApps, useTestApp, type OtherApp } from '../support/app.js';
import { openTestDatabase, testDatabaseUrl, testMode } from '../support/database.js';
import { buildTeam } from '../support/factories.js';
import { runTs } from '../support/processes.js';
import { useReceivers, type Receiver } from '../support/receiver.js';

const ctx = useTestApp();
const otherApps = useOtherApps(ctx);
const startReceiver = useReceivers();
let dev: OtherApp;
/** A second instance's connections to the same database. */
let second: Database | undefined;
beforeAll(async () => {
  dev = otherApps({ config: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true }, limit: 100_000, failedAuthLimit: 100_000 });
  if (testMode() === 'postgres') second = await openTestDatabase();
});
afterAll(async () => {
  await second?.close();
});

type Team = Awaited<ReturnType<typeof buildTeam>>;

async function createHook(t: Team, receiver: Receiver) {
  const res = await dev
    .request()
    .post(`/businesses/${t.business.id}/webhooks`)
    .set('Authorization', `Bearer ${t.ownerToken}`)
    .send({ url: receiver.url, events: ['suggestion.created'] });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
}

async function deliveryRows(db: Database, endpointId: string) {
  const { rows } = await db.pool.query<{ event_id: string; status: string; attempts: number }>(
    'SELECT event_id, status, attempts FROM webhook_deliveries WHERE endpoint_id = $1',
    [endpointId],
  );
  return rows;
}

const workerOn = (db: Database, t: Team, clock?: () => Date) =>
  new WebhookWorker(db, capturingLogger().logger, {
    allowPrivateNetworks: true,
    businessIds: [t.business.id],
    ...(clock ? { clock } : {}),
  });

// Several instances of the service share one database only on PostgreSQL; embedded, there is one.
describe.skipIf(testMode() !== 'postgres')('Webhook workers in several instances', () => {
  it('When two instances run workers, then every event of a burst reaches the receiver exactly once', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    const workers = [workerOn(ctx.db, t), workerOn(second!, t)];
    workers.forEach((worker) => worker.start());
    const BURST = 40;
    for (let i = 0; i < BURST; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          dev
            .request()
            .post('/api/v1/suggestions')
            .set('X-API-Key', t.write)
            .send({ content: `Burst ${i + j}` })
            .expect(201),
        ),
      );
    }
    await receiver.nth(BURST);
    await Promise.all(workers.map((worker) => worker.stop()));
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(BURST);
    expect(new Set(ids).size).toBe(BURST);
    const rows = await deliveryRows(ctx.db, hook.id);
    expect(rows).toHaveLength(BURST);
    expect(rows.every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
  });

  it('When every request connection is taken, then a worker on connections of its own still delivers', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    await createHook(t, receiver);
    await dev.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Busy' }).expect(201);
    // An instance whose requests hold all of their pool's connections, as under a burst of creates.
    const requests = await openTestDatabase();
    const held: pg.PoolClient[] = [];
    const background = openBackgroundDatabase(
      { DATABASE_URL: testDatabaseUrl() },
      requests,
      () => undefined,
      3,
      'fbk-test-webhooks',
    );
    try {
      for (let i = 0; i < requests.pool.options.max; i++) held.push(await requests.pool.connect());
      const worker = workerOn(background.db, t);
      worker.start();
      try {
        const got = await receiver.nth(1);
        expect(JSON.parse(got.body)).toMatchObject({ type: 'suggestion.created' });
        // Named apart from the requests' connections, for an operator reading pg_stat_activity.
        const { rows } = await ctx.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'fbk-test-webhooks'`,
        );
        expect(rows[0]!.n).toBeGreaterThan(0);
        // Planned for their values: a generic plan of the claim, chosen while the queue was empty, went bad.
        const { rows: plans } = await background.db.pool.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
        expect(plans).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
        const { rows: requestPlans } = await ctx.db.pool.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
        expect(requestPlans).toEqual([{ plan_cache_mode: 'auto' }]);
      } finally {
        await worker.stop();
      }
    } finally {
      held.forEach((client) => client.release());
      await background.close();
      await requests.close();
    }
  });

  it('When a worker process is killed mid-delivery, then another sends the delivery after the lease', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    let first = true;
    receiver.reply = () => {
      if (!first) return { status: 204 };
      first = false;
      return 'hang';
    };
    const hook = await createHook(t, receiver);
    const child = runTs('test/support/webhook-worker.ts', [], {
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      BUSINESS_ID: t.business.id,
    });
    const exited = once(child, 'exit');
    try {
      await dev
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: 'Killed mid-send' })
        .expect(201);
      const hung = await receiver.nth(1);
      child.kill('SIGKILL');
      await exited;
      const [row] = await deliveryRows(ctx.db, hook.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      // Another instance, once the lease (60 s) is over: the test moves its clock rather than waiting.
      const later = workerOn(ctx.db, t, () => new Date(Date.now() + 61_000));
      expect(await later.runDue()).toBe(1);
      const resent = await receiver.nth(2);
      expect(resent.headers['webhook-id']).toBe(hung.headers['webhook-id']);
      expect(resent.body).toBe(hung.body);
      expect(await deliveryRows(ctx.db, hook.id)).toEqual([
        { event_id: hung.headers['webhook-id'], status: 'succeeded', attempts: 2 },
      ]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe.skipIf(testMode() !== 'embedded')('The webhook worker on the embedded database', () => {
  it('When it asks for connections of its own, then it shares the one connection, which its close leaves open', async () => {
    const background = openBackgroundDatabase({ DATABASE_URL: '' }, ctx.db, () => undefined, 3, 'unused');
    expect(background.db).toBe(ctx.db);
    await background.close();
    expect((await ctx.db.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
