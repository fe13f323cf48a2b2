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
