import type pg from 'pg';
import type { Logger } from 'pino';
import { addScans, type ScanCount } from './page.repository.js';

/**
 * Page opens per QR code and UTC day, counted in memory and added to the database in one statement
 * every `intervalMs` (and on close): a page view never waits for a write. A flush that fails keeps
 * its counts for the next one; counts not yet flushed when the process dies are lost (at most one
 * interval's worth), which a view counter can afford.
 */
export class ScanCounter {
  #pending = new Map<string, ScanCount>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    intervalMs = 10_000,
  ) {
    if (intervalMs > 0) {
      this.#timer = setInterval(() => void this.flush(), intervalMs);
      this.#timer.unref();
    }
  }

  count(qrCodeId: string, businessId: string, at: Date): void {
    const day = at.toISOString().slice(0, 10);
    const key = `${qrCodeId} ${day}`;
    const entry = this.#pending.get(key);
    if (entry) entry.scans += 1;
    else this.#pending.set(key, { qrCodeId, businessId, day, scans: 1 });
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    try {
      await addScans(this.pool, batch);
    } catch (err) {
      this.logger.warn({ err, codes: batch.length }, 'scan counts not saved; kept for the next flush');
      for (const entry of batch) {
        const key = `${entry.qrCodeId} ${entry.day}`;
        const current = this.#pending.get(key);
        if (current) current.scans += entry.scans;
        else this.#pending.set(key, entry);
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
