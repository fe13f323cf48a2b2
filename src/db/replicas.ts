import type pg from 'pg';
import type { Logger } from 'pino';
import type { PositionStore } from './replica-positions.js';

/** A WAL position as PostgreSQL writes it (`16/B374D848`), as a number. */
export function parseLsn(text: string): bigint {
  const [high = '', low = ''] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Why a read that could have gone to a replica went to the primary. */
export type FallbackReason = 'down' | 'lagging' | 'behind_business' | 'failed';

/** The reads that may go to a replica, named for the metrics. */
export type ReadKind = 'export' | 'analytics' | 'search' | 'page' | 'dashboard';

/** Told of every routed read and every fallback: metrics count them (src/metrics). */
export interface ReadObserver {
  read(target: 'primary' | 'replica', kind: ReadKind): void;
  fallback(reason: FallbackReason): void;
}

export interface ReplicaStatus {
  /** host:port, never the URL (it may hold a password). */
  name: string;
  up: boolean;
  /** How far behind the primary it is known to be, now; Infinity before it was ever seen caught up. */
  lagMs: number;
}

/** A replica's pool and what the last poll learnt of it. */
interface Replica {
  name: string;
  pool: pg.Pool;
  up: boolean;
  replayLsn: bigint;
  /** The latest instant at which the primary had nothing the replica has not replayed. */
  caughtUpAt: number;
}

/** The business a read is for, and its change number as the primary gave it (the credential check). */
export interface ReadFor {
  businessId: string;
  changeNumber: number;
}

export interface ReadReplicasOptions {
  /** One pool per replica (openPostgres on each of DATABASE_READ_URL). */
  replicas: { name: string; pool: pg.Pool }[];
  /** READ_REPLICA_MAX_LAG_MS: a replica further behind than this is not read from. */
  maxLagMs: number;
  positions: PositionStore;
  logger: Pick<Logger, 'info' | 'warn'>;
  observer?: ReadObserver;
  /** How often replay positions are read; a quarter of the bound by default, between 50 ms and 1 s. */
  pollMs?: number;
}

const PRIMARY_LSN = /* sql */ `SELECT pg_current_wal_lsn()::text AS lsn`;
/** Later than every commit made before it is read: the insert position, not the written one. */
const PRIMARY_INSERT_LSN = /* sql */ `SELECT pg_current_wal_insert_lsn()::text AS lsn`;
const REPLAY_LSN = /* sql */ `
  SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS lsn`;

/**
 * Routes the reads that may be a little behind (exports, analytics, searches, the public page, the
 * dashboard's lists) to a streaming replica, and everything else to the primary. A replica answers
 * for a business only while (1) it is up, (2) it is less than `maxLagMs` behind, measured by its
 * replay position against the positions the primary had at known instants, and (3) it has replayed
 * the position the business needs: past every commit counted in the change number the primary gave
 * the request, and past the business's last write (read-your-writes). Otherwise, and when the replica
 * fails the read, the read goes to the primary: no request fails for a replica.
 */
export class ReadReplicas {
  readonly #replicas: Replica[];
  readonly #pollMs: number;
  /** The primary's position at recent instants, oldest first. */
  #samples: { at: number; lsn: bigint }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #next = 0;
  #stopped = false;

  constructor(
    private readonly primary: pg.Pool,
    private readonly options: ReadReplicasOptions,
  ) {
    this.#replicas = options.replicas.map(({ name, pool }) => ({
      name,
      pool,
      up: false,
      replayLsn: 0n,
      caughtUpAt: -Infinity,
    }));
    this.#pollMs = options.pollMs ?? Math.min(1000, Math.max(50, Math.floor(options.maxLagMs / 4)));
  }

  get configured(): boolean {
    return this.#replicas.length > 0;
  }

  /** Polls replay positions until stop(); the first poll at once. */
  start(): void {
    if (!this.configured || this.#timer || this.#stopped) return;
    const loop = () => {
      void this.poll().finally(() => {
        if (this.#stopped) return;
        this.#timer = setTimeout(loop, this.#pollMs);
        this.#timer.unref();
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await Promise.all(this.#replicas.map((replica) => replica.pool.end()));
  }

  status(now = Date.now()): ReplicaStatus[] {
    return this.#replicas.map(({ name, up, caughtUpAt }) => ({ name, up, lagMs: now - caughtUpAt }));
  }

  /** Reads the primary's position, then each replica's replay position. */
  async poll(): Promise<void> {
    const at = Date.now();
    let lsn: bigint;
    try {
      lsn = await currentLsn(this.primary, PRIMARY_LSN);
    } catch {
      // Without the primary's position no lag can be known: replicas age until it answers again.
      return;
    }
    const keepSince = at - this.options.maxLagMs - 4 * this.#pollMs;
    this.#samples = [...this.#samples.filter((sample) => sample.at >= keepSince), { at, lsn }];
    await Promise.all(this.#replicas.map((replica) => this.#check(replica)));
  }

  /**
   * Runs `work` on a replica that may answer for the business, or on the primary. `work` must only
   * read, and must be safe to run a second time (on the primary, when the replica fails it).
   */
  async read<T>(business: ReadFor, kind: ReadKind, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const replica = this.configured ? await this.#choose(business) : undefined;
    if (replica) {
      try {
        const result = await work(replica.pool);
        this.options.observer?.read('replica', kind);
        return result;
      } catch (err) {
        // A refusal the service decided on (a 404) would be the primary's too.
        if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
        this.#markDown(replica, err);
        this.options.observer?.fallback('failed');
      }
    }
    const result = await work(this.primary);
    this.options.observer?.read('primary', kind);
    return result;
  }

  /** After a write for the business committed: no replica answers for it before replaying this far. */
  async wrote(businessId: string): Promise<void> {
    if (!this.configured) return;
    try {
      await this.options.positions.record(businessId, null, await currentLsn(this.primary, PRIMARY_INSERT_LSN));
    } catch (err) {
      // The write committed: its answer stands. A change it made to suggestions or issues still moves the
      // change number, which sends the business's next reads to the primary until a replica has it.
      this.options.logger.warn({ err, businessId }, 'could not remember a write position for read replicas');
    }
  }

  async #choose(business: ReadFor): Promise<Replica | undefined> {
    const now = Date.now();
    const up = this.#replicas.filter((replica) => replica.up);
    const fresh = up.filter((replica) => now - replica.caughtUpAt < this.options.maxLagMs);
    if (fresh.length === 0) {
      this.options.observer?.fallback(up.length === 0 ? 'down' : 'lagging');
      return undefined;
    }
    const needed = await this.#neededLsn(business);
    const ready = fresh.filter((replica) => replica.replayLsn >= needed);
    if (ready.length === 0) {
      this.options.observer?.fallback('behind_business');
      return undefined;
    }
    this.#next = (this.#next + 1) % ready.length;
    return ready[this.#next];
  }

  /**
   * The position a replica needs for this business: the one remembered for its change number, or
   * else the primary's current one, which is past every commit the change number counts (read
   * before it) and past the business's last write; remembered for the next reads.
   */
  async #neededLsn({ businessId, changeNumber }: ReadFor): Promise<bigint> {
    const known = await this.options.positions.required(businessId, changeNumber);
    if (known !== undefined) return known;
    const lsn = await currentLsn(this.primary, PRIMARY_INSERT_LSN);
    await this.options.positions.record(businessId, changeNumber, lsn);
    return lsn;
  }

  async #check(replica: Replica): Promise<void> {
    try {
      const { rows } = await replica.pool.query<{ recovering: boolean; lsn: string | null }>(REPLAY_LSN);
      const row = rows[0];
      if (!row?.recovering || row.lsn === null) throw new Error('not a standby in recovery');
      replica.replayLsn = parseLsn(row.lsn);
      // Samples are in order: the last one the replica has passed is when it was last caught up.
      const passed = this.#samples.filter((sample) => sample.lsn <= replica.replayLsn).at(-1);
      if (passed) replica.caughtUpAt = Math.max(replica.caughtUpAt, passed.at);
      if (!replica.up) this.options.logger.info({ replica: replica.name }, 'read replica is up');
      replica.up = true;
    } catch (err) {
      this.#markDown(replica, err);
    }
  }

  #markDown(replica: Replica, err: unknown): void {
    if (replica.up)
      this.options.logger.warn({ err, replica: replica.name }, 'read replica down: reading from the primary');
    replica.up = false;
  }
}

async function currentLsn(pool: pg.Pool, sql: string): Promise<bigint> {
  const { rows } = await pool.query<{ lsn: string }>(sql);
  return parseLsn(rows[0]!.lsn);
}
