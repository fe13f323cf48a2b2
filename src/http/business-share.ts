import type { NextFunction, Response } from 'express';
import { RateLimitError } from '../errors/http-error.js';

/**
 * Each business's share of one instance: at most `inFlight` of its requests are served at once, and
 * the rest wait in a line of their own, first come first served, until one of its requests ends.
 *
 * Rate budgets bound what one credential spends in a minute, not what a business holds at a moment:
 * a business with many keys and members (or one within its budget, bursting) could otherwise fill the
 * pool's connections and the event loop, and every other business's requests would queue behind its
 * own. With the line per business, another business's request waits behind at most `inFlight`
 * requests of each busy business, never behind their backlog. The line is per instance on purpose:
 * what is shared is this process and its pool, whatever Redis counts.
 */
export interface BusinessShareOptions {
  /** Requests of one business served at once by this instance. */
  inFlight: number;
  /** Requests of one business waiting for a place; past it, a 429 with Retry-After. */
  queued: number;
}

interface Line {
  serving: number;
  waiting: (() => void)[];
}

/** A business's line is answered with this when it is full: the client should come back shortly. */
const FULL_RETRY_AFTER_SECONDS = 1;

export class BusinessShare {
  readonly #options: BusinessShareOptions;
  readonly #lines = new Map<string, Line>();

  constructor(options: BusinessShareOptions) {
    this.#options = options;
  }

  /**
   * Serves the request now if `businessId` has a place free, else once one is: `next` is called
   * then, and the place is given back when the response ends (or the client goes away). A request
   * whose client leaves before or while waiting never takes a place. A full line is a 429, passed to `next`
   * as an error.
   */
  enter(businessId: string, res: Response, next: NextFunction): void {
    // A client that left before its turn came (while its credential was looked up) has nothing to
    // wait for, and 'close' will not come again to give back a place taken for it.
    if (res.closed) return;
    let line = this.#lines.get(businessId);
    if (!line) {
      line = { serving: 0, waiting: [] };
      this.#lines.set(businessId, line);
    }
    const admit = () => {
      line.serving += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        line.serving -= 1;
        this.#serveNext(businessId, line);
      };
      res.once('finish', release);
      res.once('close', release);
      if (res.closed) return release();
      next();
    };
    if (line.serving < this.#options.inFlight) return admit();
    if (line.waiting.length >= this.#options.queued) {
      return next(
        new RateLimitError(
          FULL_RETRY_AFTER_SECONDS,
          `Too many requests of this business at once; retry in ${FULL_RETRY_AFTER_SECONDS} s`,
          'BUSINESS_SHARE',
        ),
      );
    }
    const waiter = () => {
      res.off('close', leave);
      admit();
    };
    const leave = () => {
      const at = line.waiting.indexOf(waiter);
      if (at >= 0) line.waiting.splice(at, 1);
      this.#forgetIfIdle(businessId, line);
    };
    res.once('close', leave);
    line.waiting.push(waiter);
  }

  /** How many requests of `businessId` are served and waiting right now (for the tests and metrics). */
  state(businessId: string): { serving: number; waiting: number } {
    const line = this.#lines.get(businessId);
    return { serving: line?.serving ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  #serveNext(businessId: string, line: Line): void {
    const next = line.waiting.shift();
    if (next) return next();
    this.#forgetIfIdle(businessId, line);
  }

  #forgetIfIdle(businessId: string, line: Line): void {
    if (line.serving === 0 && line.waiting.length === 0) this.#lines.delete(businessId);
  }
}
