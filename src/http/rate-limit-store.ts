import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';

export interface RedisOptions {
  url: string;
  /** Prepended to every counter key, so several deployments (or test files) can share one Redis. */
  prefix?: string;
  /** Longest a request waits for Redis before it is counted locally instead. */
  timeoutMs?: number;
  /** While Redis is connected but failing, how often one request probes it again. */
  probeIntervalMs?: number;
  /** What the outage log lines say is affected, and what happens meanwhile (the rate limits by default). */
  outage?: { down: string; back: string };
}

const RATE_LIMIT_OUTAGE = {
  down: 'rate-limit store (Redis) unavailable: limits are counted per instance until it is back',
  back: 'rate-limit store (Redis) is back: limits are shared again',
};

const DEFAULT_TIMEOUT_MS = 250;
const DEFAULT_PROBE_INTERVAL_MS = 5_000;
const MAX_RECONNECT_DELAY_MS = 2_000;

class RedisTimeoutError extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  // The late outcome of a command we gave up on is of no interest; it must not become an unhandled rejection.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The one Redis connection of an instance and whether it can be used right now. Requests never wait
 * on it for longer than `timeoutMs`; while it is down they are counted in memory, and the outage is
 * logged once when it starts and once when it ends, however long the reconnect loop runs.
 */
export class SharedRedis {
  readonly prefix: string;
  readonly #client;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #probeIntervalMs: number;
  readonly #outage: { down: string; back: string };
  readonly #onReady = new Set<() => void>();
  #down = false;
  #nextProbeAt = 0;
  #closed = false;

  constructor(options: RedisOptions, logger: Logger) {
    this.prefix = options.prefix ?? 'fbk:rl:';
    this.#logger = logger;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#probeIntervalMs = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    this.#outage = options.outage ?? RATE_LIMIT_OUTAGE;
    this.#client = createClient({
      url: options.url,
      // Fail at once while disconnected rather than queueing: the caller has a fallback.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: Math.max(1_000, this.#timeoutMs),
        // Never give up (the default stops after a socket timeout); back off to a retry every 2 s.
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
      },
    });
    // Every failed reconnect emits 'error': without a listener it would crash the process.
    this.#client.on('error', (err: unknown) => this.#markDown(err));
    this.#client.on('ready', () => {
      this.#markUp();
      for (const listener of this.#onReady) listener();
    });
    this.#client.connect().catch((err: unknown) => this.#markDown(err));
  }

  readonly sendCommand = (...args: string[]) => this.#client.sendCommand<string | number | string[]>(args);

  /** Called on every (re)connection, e.g. to load scripts into a Redis that restarted empty. */
  onReady(listener: () => void): void {
    this.#onReady.add(listener);
    if (this.#client.isReady) listener();
  }

  /** Runs `work` against Redis, or answers undefined at once when Redis cannot be used right now. */
  async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.#closed || !this.#client.isReady) return undefined;
    if (this.#down) {
      // Connected but failing (a hung server): let one request per interval find out whether it recovered.
      if (Date.now() < this.#nextProbeAt) return undefined;
      this.#nextProbeAt = Date.now() + this.#probeIntervalMs;
    }
    try {
      const result = await withTimeout(work(), this.#timeoutMs);
      this.#markUp();
      return result;
    } catch (err) {
      this.#markDown(err);
      this.#nextProbeAt = Date.now() + this.#probeIntervalMs;
      return undefined;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#onReady.clear();
    if (!this.#client.isReady) {
      this.#client.destroy();
      return;
    }
    await withTimeout(this.#client.close(), this.#timeoutMs).catch(() => this.#client.destroy());
  }

  #markDown(err: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#logger.warn({ err }, this.#outage.down);
  }

  #markUp(): void {
    if (!this.#down || this.#closed) return;
    this.#down = false;
    this.#logger.info(this.#outage.back);
  }
}

/**
 * Counts in Redis when it answers, and in this instance's memory when it does not, so a Redis
 * outage degrades the limit to per instance instead of failing requests or letting them through
 * uncounted.
 */
export class FallbackStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  readonly #redis: SharedRedis;
  readonly #shared: RedisStore;
  readonly #local = new MemoryStore();

  constructor(redis: SharedRedis, name: string) {
    this.#redis = redis;
    this.prefix = `${redis.prefix}${name}:`;
    this.#shared = new RedisStore({ sendCommand: redis.sendCommand, prefix: this.prefix });
  }

  init(options: Options): void {
    this.#local.init(options);
    // Loads the Lua scripts; again on every reconnection, since a failed load is never retried by the store.
    this.#redis.onReady(() => void this.#shared.init(options).catch(() => undefined));
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return (await this.#redis.attempt(() => this.#shared.increment(key))) ?? this.#local.increment(key);
  }

  async decrement(key: string): Promise<void> {
    const done = await this.#redis.attempt(async () => {
      await this.#shared.decrement(key);
      return true;
    });
    if (!done) await this.#local.decrement(key);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const shared = await this.#redis.attempt(async () => ({ info: await this.#shared.get(key) }));
    return shared ? shared.info : this.#local.get(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.#redis.attempt(() => this.#shared.resetKey(key));
    await this.#local.resetKey(key);
  }

  shutdown(): void {
    this.#local.shutdown();
  }
}
