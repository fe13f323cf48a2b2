/**
 * Per business, the WAL position a replica must have replayed before it may answer for the business
 * (docs/operations.md, "Read replicas"). An entry is kept with the business's change number it was
 * observed at: a newer change number makes it unknown, and an unknown position is found again on the
 * primary, whose current position is always late enough. Losing an entry (evicted, expired, Redis
 * down) therefore only sends reads to the primary, never to a replica that is behind.
 */
export interface PositionStore {
  /** The position recorded for the business at this change number; undefined when none is known. */
  required(businessId: string, change: number): Promise<bigint | undefined>;
  /**
   * Raises the business's position to at least `lsn`: observed at change number `change`, or, after a
   * write (`change` null), at whatever change number the entry has.
   */
  record(businessId: string, change: number | null, lsn: bigint): Promise<void>;
}

interface Entry {
  change: number | null;
  lsn: bigint;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** In this instance's memory: the oldest entries go first past `capacity` (a loss is only a primary read). */
export class MemoryPositions implements PositionStore {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly capacity = 100_000) {}

  required(businessId: string, change: number): Promise<bigint | undefined> {
    const entry = this.#entries.get(businessId);
    return Promise.resolve(entry?.change === change ? entry.lsn : undefined);
  }

  record(businessId: string, change: number | null, lsn: bigint): Promise<void> {
    const entry = this.#entries.get(businessId);
    this.#entries.delete(businessId);
    this.#entries.set(businessId, {
      change: change ?? entry?.change ?? null,
      lsn: entry ? max(entry.lsn, lsn) : lsn,
    });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldest);
    }
    return Promise.resolve();
  }
}

/** What the store needs of a Redis connection (src/http/rate-limit-store.ts SharedRedis has it). */
export interface RedisCommands {
  readonly prefix: string;
  /** Runs `work`, or answers undefined at once when Redis cannot be used right now. */
  attempt<T>(work: () => Promise<T>): Promise<T | undefined>;
  sendCommand(...args: string[]): Promise<unknown>;
}

/** Positions as 16 hex digits, so that Lua compares them as strings (its numbers are doubles). */
const hex = (lsn: bigint) => lsn.toString(16).padStart(16, '0');

/** Raises the position and sets the change number (ARGV[1], empty: keep it) in one step, for every instance. */
const RECORD_SCRIPT = `
local entry = redis.call('HMGET', KEYS[1], 'c', 'l')
local change = ARGV[1]
if change == '' then change = entry[1] or '' end
local lsn = ARGV[2]
if entry[2] and entry[2] > lsn then lsn = entry[2] end
redis.call('HSET', KEYS[1], 'c', change, 'l', lsn)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return lsn`;

/** An hour: long past any replica lag a replica is used at, and a key per active business at most. */
const ENTRY_TTL_MS = 3_600_000;

/**
 * In Redis, so that every instance knows of a write another instance made. While Redis does not
 * answer, nothing is known: reads go to the primary, as they must when a write may be unknown.
 */
export class RedisPositions implements PositionStore {
  constructor(private readonly redis: RedisCommands) {}

  async required(businessId: string, change: number): Promise<bigint | undefined> {
    const entry = await this.redis.attempt(() => this.redis.sendCommand('HMGET', this.#key(businessId), 'c', 'l'));
    if (!Array.isArray(entry)) return undefined;
    const [storedChange, lsn] = entry as (string | null)[];
    return storedChange === String(change) && lsn ? BigInt(`0x${lsn}`) : undefined;
  }

  async record(businessId: string, change: number | null, lsn: bigint): Promise<void> {
    const args = [String(change ?? ''), hex(lsn), String(ENTRY_TTL_MS)];
    await this.redis.attempt(() => this.redis.sendCommand('EVAL', RECORD_SCRIPT, '1', this.#key(businessId), ...args));
  }

  #key(businessId: string): string {
    return `${this.redis.prefix}${businessId}`;
  }
}
