import type pg from 'pg';
import { commit, runInTransaction } from '../db/database.js';
import { HttpError } from '../errors/http-error.js';
import { fingerprintOf, scopeOf, type KeyedRequest } from './idempotency.key.js';
import {
  beginKeyed,
  deleteExpiredIdempotencyRows,
  findIdempotencyRow,
  insertIdempotencyRow,
  type IdempotencyRow,
  type StoredResponse,
} from './idempotency.repository.js';

export type { StoredResponse } from './idempotency.repository.js';

export interface IdempotencyOptions {
  /** How long a stored response is replayed; then the key may be used again. */
  ttlHours: number;
  /** The clock rows are stamped and aged with. */
  now: () => Date;
  /**
   * Tests only: holds a request while another arrives, once its key is `registered` in this process
   * (before it takes a connection), and once it is `locked` in the database too.
   */
  onClaim?: (stage: 'registered' | 'locked') => Promise<void>;
}

export const keyInUse = () =>
  new HttpError(
    409,
    'A request with this Idempotency-Key is still being processed; retry shortly',
    'IDEMPOTENCY_KEY_IN_USE',
    { 'Retry-After': '1' },
  );

export const keyReused = () =>
  new HttpError(
    422,
    'This Idempotency-Key was already used for a different request (method, path or body); send a new key ' +
      'for a new request',
    'IDEMPOTENCY_KEY_REUSED',
  );

/**
 * Keys being processed in this process, per pool: every app on a database shares them, so a second
 * request never waits for the embedded database's single connection, held by the first.
 */
const inFlightByPool = new WeakMap<pg.Pool, Set<string>>();

/**
 * Requests sent with an Idempotency-Key (docs/idempotency.md). `begin` claims the key and opens the
 * transaction the operation runs in; the claim then commits the response with the operation's
 * writes, or rolls them back and records the refusal on its own.
 */
export class IdempotencyStore {
  readonly #inFlight: Set<string>;

  constructor(
    private readonly pool: pg.Pool,
    readonly options: IdempotencyOptions,
  ) {
    let inFlight = inFlightByPool.get(pool);
    if (!inFlight) inFlightByPool.set(pool, (inFlight = new Set()));
    this.#inFlight = inFlight;
  }

  /** The instant before which stored responses have expired. */
  cutoff(now = this.options.now()): Date {
    return new Date(now.getTime() - this.options.ttlHours * 3_600_000);
  }

  /**
   * The stored response to replay, or a claim to run the operation under. A 409 while the key is being
   * processed (here or by another instance), a 422 when it was used for a different request.
   */
  async begin(request: KeyedRequest): Promise<{ replay: StoredResponse } | { claim: Claim }> {
    const scope = scopeOf(request);
    const fingerprint = fingerprintOf(request);
    const name = scope.toString('base64');
    if (this.#inFlight.has(name)) throw keyInUse();
    this.#inFlight.add(name);
    let client: pg.PoolClient | undefined;
    try {
      await this.options.onClaim?.('registered');
      client = await this.pool.connect();
      const { locked, row } = await beginKeyed(client, scope, this.cutoff());
      if (!locked) throw keyInUse();
      if (row) {
        await client.query('ROLLBACK');
        client.release();
        this.#inFlight.delete(name);
        return { replay: replayOf(row, fingerprint) };
      }
      await this.options.onClaim?.('locked');
      return { claim: new Claim(this, this.pool, client, scope, fingerprint, () => this.#inFlight.delete(name)) };
    } catch (err) {
      if (client && this.#inFlight.has(name)) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
      this.#inFlight.delete(name);
      throw err;
    }
  }

  /** Deletes expired rows in batches of `batch`, at most `maxBatches` of them; answers how many. */
  async purgeExpired(batch = 500, maxBatches = 20): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < maxBatches; round++) {
      const count = await deleteExpiredIdempotencyRows(this.pool, this.cutoff(), batch);
      deleted += count;
      if (count < batch) break;
    }
    return deleted;
  }
}

/** A stored response to replay for a request of this fingerprint: a 422 when it is another request's. */
function replayOf(row: IdempotencyRow, fingerprint: Buffer): StoredResponse {
  if (!row.fingerprint.equals(fingerprint)) throw keyReused();
  const { status, content_type: contentType, location, body } = row;
  return { status, contentType, location, body };
}

/** A claimed key: its transaction is open, and the operation runs in it. */
export class Claim {
  #done = false;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient,
    private readonly scope: Buffer,
    private readonly fingerprint: Buffer,
    private readonly release: () => void,
  ) {}

  /**
   * Runs the operation in the claim's transaction, given the database it runs on: the pool, whose
   * queries join that transaction meanwhile. Answers its result and what waits for the commit.
   */
  run<T>(work: (db: pg.Pool) => Promise<T>): Promise<{ result: T; afterCommit: (() => void)[] }> {
    return runInTransaction(this.pool, this.client, () => work(this.pool));
  }

  /**
   * Stores the response and commits it with the operation's writes; answers the response to send. When
   * another request stored one for the key first (its commit fell between this claim's lookup and its
   * lock: see `beginKeyed`), the operation is rolled back and that response is the one answered.
   */
  async commit(response: StoredResponse): Promise<{ replay?: StoredResponse }> {
    const outcome = await this.#end(async () => {
      const now = this.store.options.now();
      const cutoff = this.store.cutoff(now);
      if (await insertIdempotencyRow(this.client, this.scope, this.fingerprint, response, now, cutoff)) {
        await commit(this.client);
        return 'committed' as const;
      }
      await this.client.query('ROLLBACK');
      return findIdempotencyRow(this.client, this.scope, cutoff);
    });
    if (outcome === 'committed' || outcome === undefined) return {};
    // Gone again already (it expired in between): the client retries, as when the key is busy.
    if (outcome === null) throw keyInUse();
    return { replay: replayOf(outcome, this.fingerprint) };
  }

  /**
   * Rolls the operation back. With a response (a refusal worth replaying), stores it in a transaction
   * of its own, unless another instance has claimed the key meanwhile.
   */
  async rollBack(response?: StoredResponse): Promise<void> {
    await this.#end(async () => {
      await this.client.query('ROLLBACK');
      if (!response) return;
      const now = this.store.options.now();
      const cutoff = this.store.cutoff(now);
      const { locked } = await beginKeyed(this.client, this.scope, cutoff);
      if (locked) await insertIdempotencyRow(this.client, this.scope, this.fingerprint, response, now, cutoff);
      await this.client.query('COMMIT');
    });
  }

  /** Runs the end of the claim once, then gives its connection back; answers what `work` does. */
  async #end<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.#done) return undefined;
    this.#done = true;
    let broken: Error | undefined;
    try {
      return await work();
    } catch (err) {
      broken = err instanceof Error ? err : new Error(String(err));
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      // A connection that failed mid-way is discarded rather than reused.
      this.client.release(broken);
      this.release();
    }
  }
}
