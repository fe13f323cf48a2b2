import type pg from 'pg';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { publishEvent, purgeEvents } from '../outbox/outbox.service.js';
import { DELIVERY_CHANNEL, deliveryBus } from '../outbox/event.bus.js';
import { withTransaction, type Database } from '../db/database.js';
import { toWebhookEventObject } from './webhook.presenter.js';
import {
  claimDueDeliveries,
  deleteOldDeliveries,
  disableEndpoint,
  type AttemptRecord,
  type ClaimedDelivery,
} from './webhook.queue.js';
import { ENDPOINTS } from './webhook.repository.js';
import { AttemptRecorder } from './webhook.recorder.js';
import { postWebhook, type SendOutcome } from './webhook.sender.js';

/** Svix's schedule: the waits after the 1st, 2nd... failed attempt; after the last one it gives up. */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
/** Up to this much is added to each wait, so endpoints that fail together are not retried together. */
export const JITTER = 0.1;
/** An endpoint whose deliveries have all failed this long is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface WebhookWorkerOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: loopback and private addresses may be reached (development, tests). */
  allowPrivateNetworks: boolean;
  /** EVENT_RETENTION_DAYS: events and finished deliveries older than this are purged. */
  retentionDays: number;
  /** The worker's time: claims, leases and retry times use it, so tests can move it. */
  clock: () => Date;
  /** [0, 1): the jitter. */
  random: () => number;
  /** A delivery being sent is left alone this long by other workers: longer than the timeout. */
  leaseMs: number;
  /** 2xx within this long is a success. */
  timeoutMs: number;
  /** How often a started worker looks for due retries, besides being woken by new deliveries. */
  pollIntervalMs: number;
  /**
   * Only these businesses' deliveries. For tests: test files share one PostgreSQL database, and each
   * file's workers must leave the others' deliveries alone. Unset in the service.
   */
  businessIds: readonly string[] | null;
}

export const DEFAULT_WEBHOOK_WORKER: WebhookWorkerOptions = {
  allowPrivateNetworks: false,
  retentionDays: 30,
  clock: () => new Date(),
  random: Math.random,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  pollIntervalMs: 2_000,
  businessIds: null,
};

/**
 * Deliveries taken by one claim at most: a claim costs a statement whatever its size, and 50 keeps
 * the burst it starts modest.
 */
const CLAIM = 50;
/**
 * Sends one endpoint may have in flight from one worker. A receiver that hangs holds this many
 * connections until the timeout, and nothing else waits for them: the other endpoints' deliveries are
 * claimed and sent meanwhile.
 */
export const PER_ENDPOINT = 4;
/**
 * Sends in flight from one worker at most. With PER_ENDPOINT, it takes 128 endpoints hanging at once
 * to fill it, and even then each send that times out gives its place to the oldest due delivery.
 */
export const MAX_IN_FLIGHT = 512;
/** Claims one run makes at most before it returns (wake-ups and sends that end start another). */
const MAX_CLAIMS = 10_000;
const PURGE_EVERY_MS = 10 * 60_000;

/** When to try again after failed attempt number `attempt`, or null to give up. */
export function nextAttemptDelay(attempt: number, retryAfterSeconds: number | null, random: number): number | null {
  const wait = RETRY_SCHEDULE_MS[attempt - 1];
  if (wait === undefined) return null;
  const jittered = Math.round(wait * (1 + JITTER * random));
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

/** The `webhook-signature` header: the current secret's signature, and the previous one's during a rotation. */
export function signatures(delivery: ClaimedDelivery, at: Date): string {
  const secrets = [delivery.secret];
  const previousValid = delivery.previous_secret_expires_at && delivery.previous_secret_expires_at > at;
  if (delivery.previous_secret && previousValid) secrets.push(delivery.previous_secret);
  return secrets.map((secret) => new Webhook(secret).sign(delivery.event_id, at, delivery.payload)).join(' ');
}

function succeeded(sent: SendOutcome): boolean {
  return sent.status !== null && sent.status >= 200 && sent.status < 300;
}

/** Why an attempt turns its endpoint off: a 410 at once; a failing streak once it is old enough. */
function stopReason(sent: SendOutcome, failingSince: Date | null, now: Date): 'gone' | 'failing' | null {
  if (sent.status === 410) return 'gone';
  return failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS ? 'failing' : null;
}

/**
 * Delivers the webhook queue. Every instance runs one: claims are exclusive (SKIP LOCKED and a lease),
 * so two instances never send the same attempt, and a delivery whose instance died mid-send is taken
 * again once its lease ends. It wakes on new deliveries (PostgreSQL NOTIFY from every instance, and
 * in-process for its own), and polls every few seconds for retries that have come due.
 *
 * Each delivery is sent on its own: the worker claims more as soon as a send ends, and never waits
 * for a group of sends to finish, so a slow receiver costs only its own endpoint's places
 * (PER_ENDPOINT) for as long as the timeout, never another endpoint's or another business's time.
 * Outcomes are recorded together, in one statement per group of sends that ended meanwhile.
 */
export class WebhookWorker {
  readonly #options: WebhookWorkerOptions;
  /** Each delivery from its claim until it is recorded (and its endpoint turned off, when it must be). */
  readonly #inFlight = new Set<Promise<void>>();
  /** Sends in progress per endpoint. */
  readonly #sending = new Map<string, number>();
  /** Per endpoint, its attempts not yet recorded: each resolves once it is. */
  readonly #unrecorded = new Map<string, Set<Promise<void>>>();
  readonly #recorder: AttemptRecorder;
  #sendingTotal = 0;
  /** Counts the ends of sends and the wake-ups, which a run waits for when it can claim nothing now. */
  #changes = 0;
  #waiters: (() => void)[] = [];
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #listener: pg.PoolClient | undefined;
  #lastPurge = 0;
  readonly #wake = () => this.wake();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: Partial<WebhookWorkerOptions> = {},
  ) {
    this.#options = { ...DEFAULT_WEBHOOK_WORKER, ...options };
    this.#recorder = new AttemptRecorder(db.pool);
  }

  start(): void {
    if (this.#stopped || this.#timer) return;
    deliveryBus.on('wake', this.#wake);
    this.#timer = setInterval(() => {
      this.wake();
      if (this.db.mode === 'postgres' && !this.#listener) void this.#listen();
    }, this.#options.pollIntervalMs).unref();
    if (this.db.mode === 'postgres') void this.#listen();
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    deliveryBus.off('wake', this.#wake);
    this.#listener?.release();
    this.#listener = undefined;
    this.#signal();
    await this.#running;
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Runs the queue now, or once more right after the run in progress. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      this.#signal();
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.runDue();
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#running = undefined;
    });
  }

  /**
   * Sends every delivery due by the clock and answers how many attempts were made; returns once
   * nothing more can be claimed and every attempt it started is recorded.
   */
  async runDue(): Promise<number> {
    let attempted = 0;
    try {
      for (let claims = 0; claims < MAX_CLAIMS && !this.#stopped; claims++) {
        // Here rather than after the loop, which a worker that is never idle does not reach.
        await this.#purge();
        const room = Math.min(CLAIM, MAX_IN_FLIGHT - this.#sendingTotal);
        const seen = this.#changes;
        const claimed = room > 0 ? await this.#claim(room) : [];
        for (const delivery of claimed) this.#deliver(delivery);
        attempted += claimed.length;
        // A full claim: more may be due at once.
        if (room > 0 && claimed.length === room) continue;
        if (this.#inFlight.size === 0) break;
        // Wait for a send to end (its endpoint has room again) or for new deliveries.
        await this.#changeSince(seen);
      }
      await Promise.all([...this.#inFlight]);
    } catch (err) {
      this.logger.warn({ err }, 'webhook queue unavailable; retrying at the next poll');
    }
    return attempted;
  }

  #claim(limit: number): Promise<ClaimedDelivery[]> {
    const { clock, leaseMs, businessIds } = this.#options;
    const sending = { endpointIds: [...this.#sending.keys()], counts: [...this.#sending.values()] };
    return claimDueDeliveries(this.db.pool, {
      now: clock(),
      limit,
      leaseMs,
      perEndpoint: PER_ENDPOINT,
      sending,
      businessIds,
    });
  }

  #changeSince(seen: number): Promise<void> {
    if (this.#changes !== seen) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #signal(): void {
    this.#changes++;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Sends one delivery, records its outcome with whatever else ended meanwhile, stops its endpoint if it must. */
  #deliver(delivery: ClaimedDelivery): void {
    const endpointId = delivery.endpoint_id;
    this.#countSending(endpointId, 1);
    let recorded!: () => void;
    const attempt = new Promise<void>((resolve) => (recorded = resolve));
    const peers = this.#unrecorded.get(endpointId) ?? new Set<Promise<void>>();
    this.#unrecorded.set(endpointId, peers.add(attempt));
    const work = (async () => {
      const now = this.#options.clock();
      let sent: SendOutcome;
      try {
        sent = await this.#send(delivery, now);
      } finally {
        this.#countSending(endpointId, -1);
        this.#signal();
      }
      if (sent.error) {
        this.logger
          .child({ deliveryId: delivery.id, eventId: delivery.event_id, attempt: delivery.attempts })
          .warn({ status: sent.status, error: sent.error, detail: sent.detail }, 'webhook delivery failed');
      }
      let failingSince: Date | null;
      try {
        failingSince = await this.#recorder.record(now, this.#attempt(delivery, sent, now), endpointId);
      } finally {
        recorded();
        peers.delete(attempt);
        if (peers.size === 0) this.#unrecorded.delete(endpointId);
      }
      const reason = stopReason(sent, failingSince, now);
      if (reason === 'failing') {
        // The endpoint's other attempts out now may have succeeded: once they are recorded, the
        // streak is over if one did (disableEndpoint checks it).
        await Promise.all([...peers]);
      }
      if (reason) await this.#disable(delivery, reason, now);
    })()
      .catch((err: unknown) => {
        // Unrecorded, the delivery is taken again when its lease ends.
        this.logger.warn({ err, deliveryId: delivery.id }, 'webhook attempt not recorded; retried after its lease');
      })
      .finally(() => {
        this.#inFlight.delete(work);
        this.#signal();
        // A started worker carries on by itself; a direct runDue() is waiting for this already.
        if (this.#timer && !this.#running) this.wake();
      });
    this.#inFlight.add(work);
  }

  #countSending(endpointId: string, change: 1 | -1): void {
    const count = (this.#sending.get(endpointId) ?? 0) + change;
    if (count > 0) this.#sending.set(endpointId, count);
    else this.#sending.delete(endpointId);
    this.#sendingTotal += change;
  }

  async #listen(): Promise<void> {
    try {
      const client = await this.db.pool.connect();
      if (this.#stopped) return client.release();
      client.on('notification', this.#wake);
      client.on('error', () => {
        client.release(true);
        if (this.#listener === client) this.#listener = undefined;
      });
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
      this.#listener = client;
    } catch (err) {
      this.logger.warn({ err }, 'webhook worker cannot listen for new deliveries; polling meanwhile');
    }
  }

  async #purge(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPurge < PURGE_EVERY_MS) return;
    this.#lastPurge = now;
    await purgeEvents(this.db.pool, this.#options.retentionDays);
    await deleteOldDeliveries(this.db.pool, this.#options.retentionDays, 500);
  }

  #send(delivery: ClaimedDelivery, now: Date): Promise<SendOutcome> {
    const headers = {
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatures(delivery, now),
    };
    return postWebhook(delivery.url, headers, delivery.payload, this.#options, now);
  }

  /** What becomes of the delivery: done, given up, or retried on the schedule. */
  #attempt(delivery: ClaimedDelivery, sent: SendOutcome, now: Date): AttemptRecord {
    const outcome = {
      deliveryId: delivery.id,
      statusCode: sent.status,
      durationMs: sent.durationMs,
      error: sent.error,
    };
    if (succeeded(sent)) return { ...outcome, status: 'succeeded', nextAttemptAt: null };
    // The receiver says the endpoint is gone for good: no retry.
    if (sent.status === 410) return { ...outcome, status: 'failed', nextAttemptAt: null };
    const delay = nextAttemptDelay(delivery.attempts, sent.retryAfterSeconds, this.#options.random());
    if (delay === null) return { ...outcome, status: 'failed', nextAttemptAt: null };
    return { ...outcome, status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
  }

  /** Turns the endpoint off and records a `webhook.disabled` event, together. */
  async #disable(delivery: ClaimedDelivery, reason: 'gone' | 'failing', now: Date): Promise<void> {
    const failingSince = new Date(now.getTime() - DISABLE_AFTER_MS);
    await withTransaction(this.db.pool, async (tx) => {
      if (!(await disableEndpoint(tx, delivery.endpoint_id, reason, failingSince))) return;
      const endpoint = await ENDPOINTS.find(tx, delivery.business_id, delivery.endpoint_id);
      if (!endpoint) return;
      await publishEvent(tx, delivery.business_id, 'webhook.disabled', { object: toWebhookEventObject(endpoint) });
    });
    this.logger.warn({ endpointId: delivery.endpoint_id, reason }, 'webhook endpoint disabled');
  }
}
