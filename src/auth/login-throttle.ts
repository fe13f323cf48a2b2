import { setTimeout as sleep } from 'node:timers/promises';

export interface LoginThrottleOptions {
  /** Failures within the window that cost nothing extra. */
  freeFailures: number;
  /** Delay added at the first failure past the free ones; doubles with each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
  /** Bound on remembered emails, so a flood of distinct emails cannot grow memory without limit. */
  maxTracked: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  freeFailures: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  windowMs: 15 * 60_000,
  maxTracked: 10_000,
};

interface Failures {
  count: number;
  firstAt: number;
}

/**
 * Slows repeated failed logins for one email (known or not, so it reveals nothing) with an
 * exponential delay. Per instance and in memory: it blunts guessing; it is not a lockout, which
 * would let anyone lock a user out.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE) {}

  /** Waits as long as the recent failures for this email require. */
  async wait(email: string): Promise<void> {
    const entry = this.current(email.toLowerCase());
    const excess = (entry?.count ?? 0) - this.options.freeFailures;
    if (excess < 0) return;
    await sleep(Math.min(this.options.baseDelayMs * 2 ** excess, this.options.maxDelayMs));
  }

  recordFailure(email: string): void {
    const key = email.toLowerCase();
    const entry = this.current(key) ?? { count: 0, firstAt: Date.now() };
    entry.count += 1;
    this.failures.delete(key); // re-insert: Map order doubles as least-recently-failed order
    this.failures.set(key, entry);
    if (this.failures.size > this.options.maxTracked) {
      this.failures.delete(this.failures.keys().next().value!);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(email.toLowerCase());
  }

  private current(key: string): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && Date.now() - entry.firstAt > this.options.windowMs) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }
}
