import type { Response } from 'express';

/** Told of every lookup: metrics count them (src/metrics). */
export interface CacheObserver {
  hit(): void;
  miss(): void;
}

interface Entry {
  /** The business's change number read before the body was made. */
  change: number;
  body: Buffer;
}

/**
 * Serialised list responses, each kept with the business's change number (docs/caching.md) and
 * served only while the business still has that number: any committed write to its suggestions or
 * issues, through any instance or by hand, makes the next request rebuild the response. Least recently
 * used entries go first once the bodies exceed `maxBytes`; 0 keeps nothing.
 */
export class ListCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly observer?: CacheObserver,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string, change: number): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (entry?.change !== change) {
      this.observer?.miss();
      return undefined;
    }
    this.observer?.hit();
    // Map order is the recency order: the entry moves to the end.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  set(key: string, change: number, body: Buffer): void {
    if (body.length > this.maxBytes) return;
    const existing = this.#entries.get(key);
    // A request that read an older number must not replace what a newer one made.
    if (existing && existing.change > change) return;
    this.#remove(key);
    this.#entries.set(key, { change, body });
    this.#bytes += body.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.#remove(oldest);
    }
  }

  #remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.body.length;
    this.#entries.delete(key);
  }
}

/**
 * Answers a list request from the cache when the business has not changed since the response was
 * made, else with `build()`'s result, which is then kept. The change number is the one the API key
 * lookup read, before the list: the list's snapshot is then at least as new as the number it is
 * filed under, and every later write moves the number on, so no request is ever answered with data
 * older than its own start. `key` must hold everything the response depends on besides the
 * business's rows (the family, the resource, the query).
 */
export async function sendCachedList(
  res: Response,
  cache: ListCache,
  business: { businessId: string; changeNumber: number },
  key: string,
  build: () => Promise<unknown>,
): Promise<void> {
  const { businessId, changeNumber } = business;
  if (cache.maxBytes === 0) {
    res.json(await build());
    return;
  }
  const fullKey = `${businessId} ${key}`;
  let body = cache.get(fullKey, changeNumber);
  if (!body) {
    body = Buffer.from(JSON.stringify(await build()));
    cache.set(fullKey, changeNumber, body);
  }
  res.set('Content-Type', 'application/json; charset=utf-8').send(body);
}
