import type { Queryable } from '../db/database.js';
import { recordAttempts, type AttemptRecord } from './webhook.queue.js';

/**
 * Records attempts in groups: those that end while a statement is running go together in the next
 * one, so a busy worker writes one statement per group rather than one per delivery, and a quiet one
 * records each attempt at once.
 */
export class AttemptRecorder {
  #waiting: {
    at: Date;
    attempt: AttemptRecord;
    endpointId: string;
    done: (since: Date | null) => void;
    fail: (err: unknown) => void;
  }[] = [];
  #writing = false;

  constructor(private readonly pool: Queryable) {}

  /** Answers, when the endpoint's attempts in the group all failed, when its failing streak started. */
  record(at: Date, attempt: AttemptRecord, endpointId: string): Promise<Date | null> {
    return new Promise((done, fail) => {
      this.#waiting.push({ at, attempt, endpointId, done, fail });
      if (!this.#writing) void this.#write();
    });
  }

  async #write(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const group = this.#waiting.splice(0);
      // One moment for the group's rows: the latest attempt's, so no streak starts before its failure.
      const at = new Date(Math.max(...group.map((entry) => entry.at.getTime())));
      try {
        const streaks = await recordAttempts(
          this.pool,
          at,
          group.map((entry) => entry.attempt),
        );
        for (const entry of group) entry.done(streaks.get(entry.endpointId) ?? null);
      } catch (err) {
        for (const entry of group) entry.fail(err);
      }
    }
    this.#writing = false;
  }
}
