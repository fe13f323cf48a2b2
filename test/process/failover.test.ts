import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger } from '../support/app.js';
import { testMode } from '../support/database.js';
import { buildTeam, buildTenant } from '../support/factories.js';
import { useReceivers, type Receiver } from '../support/receiver.js';
import { WebhookWorker } from '../../src/webhooks/webhook.worker.js';
import { FORMATION_START_MS, startFormation, type Formation, type FormationEvent } from '../support/formation.js';

/**
 * A real failover (issue 45): a pg_auto_failover formation (test/support/formation.ts), the app on
 * its multi-host URI, clients writing continuously with an Idempotency-Key, `pg_autoctl perform
 * failover` in the middle, then a failover back. Every write answered 2xx must be there, none twice.
 * PostgreSQL project only: the embedded run has no formation.
 */
async function formationOrReason(): Promise<Formation | string> {
  if (testMode() !== 'postgres') return process.env.TEST_DATABASE_URL ? '' : 'it needs the PostgreSQL project';
  return startFormation('test_failover_formation');
}

const started = await formationOrReason();
const formation = typeof started === 'string' ? undefined : started;
if (typeof started === 'string' && started) console.warn(`failover test skipped: ${started}`);

const CLIENTS = 4;
/** Every loop is bounded: a client gives up a write after this many tries, a round after this many writes. */
const MAX_TRIES = 400;
const MAX_WRITES = 20_000;

interface Round {
  acknowledged: Map<string, string>; // Idempotency-Key -> suggestion id
  refused: number;
  dropped: number;
  /** Writes refused at least once, then acknowledged with the same key. */
  retriedAcross: number;
  /** When a write was last refused, and when the first one after it was accepted (ms since epoch). */
  firstRefusedAt?: number;
  firstAcceptedAfterRefusalAt?: number;
  /** When each write was acknowledged (ms since epoch). */
  acceptedAt: number[];
}

const startReceiver = useReceivers();

describe.skipIf(!formation)('Failover of a pg_auto_failover formation under continuous writes', () => {
  const { logger } = capturingLogger();
  let db: Database;
  /** The webhook worker's own pool on the formation, as main.ts gives it one. */
  let workerDb: Database;
  let worker: WebhookWorker;
  let receiver: Receiver;
  /** A business with a webhook, written to slowly through both failovers. */
  let hooked: { key: string; businessId: string };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    db = openPostgres(formation!.uri, () => undefined, 10, { connectTimeoutMs: 2_000 });
    await migrate(db.pool);
    const rateLimiters = createRateLimiters({ limit: 1_000_000, failedAuthLimit: 1_000_000, logger });
    server = createApp({ db, logger, rateLimiters, config: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true } }).listen(
      0,
      '127.0.0.1',
    );
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const team = await buildTeam(db);
    receiver = await startReceiver();
    const hook = await fetch(`${base}/businesses/${team.business.id}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${team.ownerToken}` },
      body: JSON.stringify({ url: receiver.url, events: ['suggestion.created'] }),
    });
    expect(hook.status).toBe(201);
    hooked = { key: team.write, businessId: team.business.id };
    workerDb = openPostgres(formation!.uri, () => undefined, 3, { connectTimeoutMs: 2_000 });
    worker = new WebhookWorker(workerDb, logger, { allowPrivateNetworks: true, businessIds: [team.business.id] });
    worker.start();
  }, FORMATION_START_MS);

  afterAll(async () => {
    await worker?.stop();
    await workerDb?.close().catch(() => undefined);
    server?.close();
    await db?.close().catch(() => undefined);
    await formation?.remove();
  }, 120_000);

  /** One write until acknowledged (the same key every try), or MAX_TRIES. */
  async function write(apiKey: string, round: Round, client: number, n: number): Promise<void> {
    const key = randomUUID();
    let refusedOnce = false;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      let status: number;
      let body: { id?: string } = {};
      try {
        const res = await fetch(`${base}/api/v1/suggestions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': key },
          body: JSON.stringify({ content: `Idea ${n} from client ${client}` }),
          signal: AbortSignal.timeout(20_000),
        });
        status = res.status;
        body = (await res.json()) as { id?: string };
        if (status !== 201) expect([503, 409]).toContain(status);
        if (status !== 201) expect(res.headers.get('retry-after')).toBeTruthy();
      } catch (err) {
        if ((err as Error).name === 'AssertionError') throw err;
        round.dropped++;
        status = 0;
      }
      if (status === 201) {
        round.acknowledged.set(key, body.id!);
        round.acceptedAt.push(Date.now());
        if (refusedOnce) round.retriedAcross++;
        if (round.firstRefusedAt && !round.firstAcceptedAfterRefusalAt) round.firstAcceptedAfterRefusalAt = Date.now();
        return;
      }
      refusedOnce = true;
      round.refused++;
      round.firstRefusedAt ??= Date.now();
      await sleep(100);
    }
    throw new Error(`a write was refused ${MAX_TRIES} times`);
  }

  /** Clients writing until `stop` says so (and at most MAX_WRITES writes in all). */
  async function writeWhile(apiKey: string, round: Round, running: () => boolean): Promise<void> {
    let n = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        while (running() && n < MAX_WRITES) await write(apiKey, round, client, n++);
      }),
    );
  }

  async function primaryPort(): Promise<number | undefined> {
    const nodes = await formation!.state();
    return nodes.find((node) => node.reported === 'primary')?.port;
  }

  /**
   * Whether the formation was replicating asynchronously at some moment of a round: the old primary
   * reported or was assigned `wait_primary` (pg_auto_failover's answer to a standby it thinks unhealthy:
   * commits stop waiting for the standby), or no standby was synchronous when the failover was asked
   * for. A commit acknowledged then may be missing after the failover by the formation's own design
   * (docs/operations.md); such a round proves nothing about the service and is run again.
   */
  function asynchronousMoments(events: FormationEvent[], primary: number | undefined, from: number, to: number) {
    return events.filter(
      (event) =>
        event.at >= from &&
        event.at <= to &&
        ((event.port === primary && [event.reported, event.assigned].includes('wait_primary')) ||
          (event.port !== primary && [event.reported, event.assigned].includes('catchingup'))),
    );
  }

  /** A round of writes across one failover; at most three rounds when the formation was not synchronous. */
  async function failoverUnderWrites(label: string): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      await settled();
      const tenant = await buildTenant(db);
      const before = await primaryPort();
      const round: Round = { acknowledged: new Map(), refused: 0, dropped: 0, retriedAcross: 0, acceptedAt: [] };
      const roundAt = Date.now();
      let running = true;
      let promotedAt: number | undefined;
      const writing = writeWhile(tenant.write, round, () => running);
      await sleep(2_000);
      const standbys = await synchronousStandbys(before);
      const failing = formation!.failover();
      // When the monitor first reports the other node as primary, polled every 250 ms (bounded).
      for (let poll = 0; poll < 720 && !promotedAt; poll++) {
        const nodes = await formation!.state().catch(() => []);
        if (nodes.some((node) => node.port !== before && ['wait_primary', 'primary'].includes(node.reported))) {
          promotedAt = Date.now();
        } else await sleep(250);
      }
      await failing;
      // Writes go on until one has been accepted 10 s past the promotion (or the bound).
      for (let poll = 0; poll < 150 && Date.now() - (promotedAt ?? 0) < 10_000; poll++) await sleep(100);
      await sleep(2_000);
      running = false;
      await writing;

      const after = await primaryPort();
      expect(promotedAt).toBeDefined();
      expect(after).not.toBe(before);
      const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM suggestions WHERE business_id = $1', [
        tenant.business.id,
      ]);
      const stored = new Set(rows.map((row) => row.id));
      const missing = [...round.acknowledged.values()].filter((id) => !stored.has(id));
      if (missing.length > 0) {
        const events = await formation!.events();
        const moments = asynchronousMoments(events, before, roundAt, promotedAt!);
        const log = events
          .filter((event) => event.at >= roundAt - 1_000)
          .map(
            (event) =>
              `  ${event.at - roundAt} ms: ${event.port} ${event.reported}/${event.assigned} ${event.description}`,
          )
          .join('\n');
        const times = missing.map(madeAt).sort((a, b) => a - b);
        console.warn(
          `failover ${label}, round ${attempt}: ${missing.length} acknowledged writes missing, made from ` +
            `${times[0]! - roundAt} ms to ${times.at(-1)! - roundAt} ms into the round (failover asked at ` +
            `${(promotedAt ?? roundAt) - roundAt} ms at the latest); synchronous standbys when it was asked: ` +
            `${standbys.length > 0 ? standbys.join(', ') : 'none'}; the monitor's events:\n${log}`,
        );
        if (moments.length > 0 || standbys.length === 0) {
          retried++;
          continue;
        }
      }
      await report(label, round, rows, promotedAt!);
      judged.push({ businessId: tenant.business.id, ids: new Set(round.acknowledged.values()) });
      return;
    }
    throw new Error(`failover ${label}: the formation replicated asynchronously in three rounds running`);
  }

  /** The standbys whose flush a commit on the primary at `port` waits for (pg_auto_failover's sync replication). */
  async function synchronousStandbys(port: number | undefined): Promise<string[]> {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ name: string }>(
        `SELECT application_name AS name FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')`,
      );
      return rows.map((row) => row.name);
    } catch {
      return [];
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Until the monitor reports one primary and one secondary, both where assigned (bounded, 120 s). */
  async function settled(): Promise<void> {
    for (let poll = 0; poll < 480; poll++) {
      const nodes = await formation!.state().catch(() => []);
      const states = nodes.map((node) => `${node.reported}/${node.assigned}`).sort();
      if (states.join() === 'primary/primary,secondary/secondary') return;
      await sleep(250);
    }
    throw new Error('the formation did not settle on a primary and a secondary');
  }

  /**
   * The webhook worker went on through both failovers: every suggestion stored for the hooked business
   * reaches the receiver (at least once: a delivery whose success could not be recorded while the
   * primary moved is sent again, with the same webhook-id), within a minute of the last write.
   */
  async function webhooksDelivered(slow: Round): Promise<void> {
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM suggestions WHERE business_id = $1', [
      hooked.businessId,
    ]);
    expect(rows.length).toBeGreaterThan(0);
    const stored = new Set(rows.map((row) => row.id));
    const lost = [...slow.acknowledged.values()].filter((id) => !stored.has(id));
    if (retried === 0) expect(lost).toEqual([]);
    expect(slow.dropped).toBe(0);
    const delivered = () =>
      new Set(
        receiver.received.map((got) => (JSON.parse(got.body) as { data: { object: { id: string } } }).data.object.id),
      );
    for (let poll = 0; poll < 240 && [...stored].some((id) => !delivered().has(id)); poll++) await sleep(250);
    expect([...stored].filter((id) => !delivered().has(id))).toEqual([]);
    const ids = receiver.received.map((got) => got.headers['webhook-id']);
    console.log(
      `webhooks: ${stored.size} suggestions of the hooked business, ${receiver.received.length} deliveries ` +
        `(${ids.length - new Set(ids).size} sent again with their webhook-id); ${slow.refused} refused tries`,
    );
  }

  /** When a UUIDv7 id was made (its first 48 bits, ms since epoch). */
  const madeAt = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

  /** Rounds run again because the formation was not synchronous (the hooked business may have lost writes then). */
  let retried = 0;

  /** The rounds judged so far: a later failover must not lose what an earlier one kept. */
  const judged: { businessId: string; ids: Set<string> }[] = [];

  async function report(label: string, round: Round, rows: { id: string }[], promotedAt: number): Promise<void> {
    const stored = new Set(rows.map((row) => row.id));
    // Every acknowledged id is there, and nothing else: no retried key made a second suggestion.
    expect([...round.acknowledged.values()].filter((id) => !stored.has(id))).toEqual([]);
    expect(rows.length).toBe(round.acknowledged.size);
    for (const earlier of judged) {
      const { rows: kept } = await db.pool.query<{ id: string }>('SELECT id FROM suggestions WHERE business_id = $1', [
        earlier.businessId,
      ]);
      expect(kept.length).toBe(earlier.ids.size);
      expect(kept.every((row) => earlier.ids.has(row.id))).toBe(true);
    }
    expect(new Set(round.acknowledged.values()).size).toBe(round.acknowledged.size);
    expect(round.dropped).toBe(0);
    expect(round.retriedAcross).toBeGreaterThan(0);
    const acceptedAgain = round.firstAcceptedAfterRefusalAt!;
    const recoverSeconds = (acceptedAgain - round.firstRefusedAt!) / 1000;
    const sincePromotion = (acceptedAgain - promotedAt) / 1000;
    expect(sincePromotion).toBeLessThan(10);
    // The clients kept writing on the new primary (the 10 s above is not met by writes before it).
    const afterPromotion = round.acceptedAt.filter((at) => at > promotedAt).length;
    expect(afterPromotion).toBeGreaterThan(0);
    console.log(
      `failover ${label}: ${round.acknowledged.size} writes acknowledged, ${round.refused} refused tries ` +
        `(${round.retriedAcross} writes retried across with their key, one suggestion each), ` +
        `${recoverSeconds.toFixed(1)} s from first refused to first accepted write, ` +
        `${sincePromotion.toFixed(1)} s after the monitor was seen reporting the promotion (polled), ` +
        `${afterPromotion} acknowledged after it; ${rows.length} suggestions stored`,
    );
  }

  it('When the primary fails over under continuous writes, and back, then every acknowledged write is there once, writes resume within 10 s, and the webhook worker delivers every one', async () => {
    // One write a tenth of a second to the business with a webhook, through both failovers.
    const slow: Round = { acknowledged: new Map(), refused: 0, dropped: 0, retriedAcross: 0, acceptedAt: [] };
    let slowRunning = true;
    const slowWriting = (async () => {
      for (let n = 0; slowRunning && n < 2_000; n++) {
        await write(hooked.key, slow, 9, n);
        await sleep(100);
      }
    })();
    await failoverUnderWrites('1');
    await failoverUnderWrites('2 (back again)');
    slowRunning = false;
    await slowWriting;
    await webhooksDelivered(slow);
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { primary?: string }).primary).toBe(`127.0.0.1:${await primaryPort()}`);
  }, 600_000);
});
