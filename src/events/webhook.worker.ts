import type pg from 'pg';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { publishEvent } from '../activity/activity.service.js';
import { DELIVERY_CHANNEL, deliveryBus } from '../activity/event.bus.js';
import { withTransaction, type Database } from '../db/database.js';
import { purgeEvents } from './event.service.js';
import { toWebhookEventObject } from './webhook.presenter.js';
import {
  claimDueDeliveries,
  deleteOldDeliveries,
  disableEndpoint,
  recordAttempts,
  type AttemptRecord,
  type ClaimedDelivery,
} from './webhook.queue.js';
import { findEndpoint } from './webhook.repository.js';
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
   * Only this business's deliveries. For tests: test files share one PostgreSQL database, and each
   * file's workers must leave the others' deliveries alone. Unset in the service.
   */
  businessId: string | null;
}

export const DEFAULT_WEBHOOK_WORKER: WebhookWorkerOptions = {
  allowPrivateNetworks: false,
  retentionDays: 30,
  clock: () => new Date(),
  random: Math.random,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  pollIntervalMs: 2_000,
  businessId: null,
};

/**
 * Deliveries claimed, sent and recorded together. A cycle costs two statements whatever its size, so
 * a larger batch drains a backlog in fewer cycles; but a batch is posted all at once, perhaps to one
 * receiver, and 50 keeps that burst modest. A batch lasts at most the timeout, well within the lease.
 */
const BATCH = 50;
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
function stopReason(sent: SendOutcome, failingSince: Date | undefined, now: Date): 'gone' | 'failing' | null {
  if (sent.status === 410) return 'gone';
  return failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS ? 'failing' : null;
}

/**
 * Delivers the webhook queue. Every instance runs one: claims are exclusive (SKIP LOCKED and a lease),
 * so two instances never send the same attempt, and a delivery whose instance died mid-send is taken
 * again once its lease ends. It wakes on new deliveries (PostgreSQL NOTIFY from every instance, and
 * in-process for its own), and polls every few seconds for retries that have come due.
 */
export class WebhookWorker {
  readonly #options: WebhookWorkerOptions;
  readonly #inFlight = new Set<Promise<unknown>>();
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
    await this.#running;
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Runs the queue now, or once more right after the run in progress. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
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

  /** Sends every delivery due by the clock, in batches; answers how many attempts were made. */
  async runDue(): Promise<number> {
    let attempted = 0;
    try {
      for (let round = 0; round < 1000 && !this.#stopped; round++) {
        const { clock, leaseMs, businessId } = this.#options;
        const claimed = await claimDueDeliveries(this.db.pool, clock(), BATCH, leaseMs, businessId);
        if (claimed.length > 0) await this.#track(this.#deliverBatch(claimed));
        attempted += claimed.length;
        if (claimed.length < BATCH) break;
      }
      await this.#purge();
    } catch (err) {
      this.logger.warn({ err }, 'webhook queue unavailable; retrying at the next poll');
    }
    return attempted;
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work)).catch(() => undefined);
    return work;
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

  /**
   * Posts a batch at once, records every outcome in one statement, then turns off the endpoints that
   * must stop. The lease keeps other workers off these deliveries until they are recorded.
   */
  async #deliverBatch(claimed: ClaimedDelivery[]): Promise<void> {
    // One moment for the batch: its posts start together.
    const now = this.#options.clock();
    const results = await Promise.all(
      claimed.map(async (delivery) => ({ delivery, sent: await this.#send(delivery, now) })),
    );
    const attempts = results.map(({ delivery, sent }) => this.#attempt(delivery, sent, now));
    const streaks = await recordAttempts(this.db.pool, now, attempts);
    const stopping = new Map<string, { delivery: ClaimedDelivery; reason: 'gone' | 'failing' }>();
    for (const { delivery, sent } of results) {
      if (sent.error) {
        this.logger
          .child({ deliveryId: delivery.id, eventId: delivery.event_id, attempt: delivery.attempts })
          .warn({ status: sent.status, error: sent.error }, 'webhook delivery failed');
      }
      const reason = stopReason(sent, streaks.get(delivery.endpoint_id), now);
      // Several deliveries may stop one endpoint: it is turned off once, as gone if any said so.
      if (reason === 'gone' || (reason && !stopping.has(delivery.endpoint_id))) {
        stopping.set(delivery.endpoint_id, { delivery, reason });
      }
    }
    await Promise.all([...stopping.values()].map(({ delivery, reason }) => this.#disable(delivery, reason)));
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
  async #disable(delivery: ClaimedDelivery, reason: 'gone' | 'failing'): Promise<void> {
    await withTransaction(this.db.pool, async (tx) => {
      if (!(await disableEndpoint(tx, delivery.endpoint_id, reason))) return;
      const endpoint = await findEndpoint(tx, delivery.business_id, delivery.endpoint_id);
      if (!endpoint) return;
      await publishEvent(tx, delivery.business_id, 'webhook.disabled', { object: toWebhookEventObject(endpoint) });
    });
    this.logger.warn({ endpointId: delivery.endpoint_id, reason }, 'webhook endpoint disabled');
  }
}
