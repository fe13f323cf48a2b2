import type pg from 'pg';
import type { Logger } from 'pino';
import {
  claimDueMail,
  claimNewMail,
  deleteOldMail,
  finishMail,
  insertMail,
  scheduleMailRetry,
  type MailRow,
  type NewMail,
} from './mail.repository.js';
import type { MailTransport } from './mail.transport.js';
import { afterCommit, type Queryable } from '../db/database.js';

/** What features need of mail: queue a message in their transaction, then have it sent after commit. */
export interface Mailer {
  /** True without SMTP: messages go to the log, and invite tokens are returned to the inviter. */
  readonly developmentMode: boolean;
  /** A dashboard page carrying a token in its fragment (never sent to a server), if DASHBOARD_URL is set. */
  link(page: string, token: string): string | undefined;
  /** Writes a message in the caller's transaction; it is sent once `deliver` is called after commit. */
  enqueue(tx: Queryable, mail: NewMail): Promise<void>;
  /** Sends these committed messages now, in the background; never throws, never delays the caller. */
  deliver(ids: readonly string[]): void;
}

export interface MailSenderOptions {
  /** Base URL of the dashboard, for links in messages. */
  dashboardUrl?: string;
  /** The first retry waits this long; each next one twice as long, up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** After this many failed attempts a message is `failed`. */
  maxAttempts: number;
  /** How often a started sender looks for due messages (retries, and those another instance left). */
  pollIntervalMs: number;
  /** How long a message being sent is left alone by other instances: longer than any SMTP timeout. */
  leaseMs: number;
}

export const DEFAULT_MAIL_SENDER: MailSenderOptions = {
  retryDelayMs: 10_000,
  maxRetryDelayMs: 30 * 60_000,
  // 10 s, 20 s, ... then every 30 min: about four hours in all
  maxAttempts: 15,
  pollIntervalMs: 15_000,
  leaseMs: 2 * 60_000,
};

const KEEP_FINISHED_MS = 30 * 24 * 60 * 60_000;
const BATCH = 20;

/**
 * Delivers the outbox. A message is sent right after the transaction that wrote it commits
 * (`deliver`), and, once `start`ed, retried with exponential backoff by a poll that also takes over
 * what another instance left behind. Delivery is at least once: an instance that dies after the
 * server accepted a message but before recording it sends it again after the lease, with the same
 * Message-ID (the row's id), so receivers can drop the copy. Sending never
 * fails the request that caused it; the outcome is the message's status (`sent`, `failed`).
 */
export class MailSender implements Mailer {
  readonly #options: MailSenderOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly transport: MailTransport,
    private readonly logger: Logger,
    options: Partial<MailSenderOptions> = {},
  ) {
    this.#options = { ...DEFAULT_MAIL_SENDER, ...options };
  }

  get developmentMode(): boolean {
    return this.transport.kind === 'log';
  }

  link(page: string, token: string): string | undefined {
    const base = this.#options.dashboardUrl;
    return base ? `${base.replace(/\/+$/, '')}/${page}#token=${encodeURIComponent(token)}` : undefined;
  }

  enqueue(tx: Queryable, mail: NewMail): Promise<void> {
    return insertMail(tx, mail);
  }

  deliver(ids: readonly string[]): void {
    // Inside a request transaction (an Idempotency-Key's), the messages are committed only with it.
    afterCommit(() => this.#deliverNow(ids));
  }

  #deliverNow(ids: readonly string[]): void {
    if (this.#stopped) return; // a started sender elsewhere, or this one after a restart, takes them
    for (const id of ids) {
      // Once the current response is written: its timing never depends on sending (password resets).
      const sent = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        const row = await claimNewMail(this.pool, id, this.#options.leaseMs);
        if (row) await this.#send(row);
      });
      this.#track(sent);
    }
  }

  /** Polls for due messages until stopped. The timer never keeps the process alive. */
  start(): void {
    if (this.#stopped || this.#timer) return;
    const tick = () => {
      this.#polling = this.runDue()
        .then(() => undefined)
        .finally(() => {
          this.#polling = undefined;
          if (!this.#stopped) this.#timer = setTimeout(tick, this.#options.pollIntervalMs).unref();
        });
    };
    this.#timer = setTimeout(tick, 0).unref();
  }

  /** Stops polling, waits for the messages being sent, and closes the transport. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#polling;
    await Promise.allSettled([...this.#inFlight]);
    this.transport.close();
  }

  /** Sends every message that is due now, in batches; answers how many were attempted. */
  async runDue(): Promise<number> {
    let attempted = 0;
    try {
      for (;;) {
        const batch = await claimDueMail(this.pool, BATCH, this.#options.leaseMs);
        for (const row of batch) await this.#send(row);
        attempted += batch.length;
        if (batch.length < BATCH || this.#stopped) break;
      }
      await deleteOldMail(this.pool, KEEP_FINISHED_MS);
    } catch (err) {
      this.logger.warn({ err }, 'mail outbox unavailable; retrying at the next poll');
    }
    return attempted;
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) => this.logger.warn({ err }, 'mail delivery interrupted'));
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  async #send(row: MailRow): Promise<void> {
    const log = this.logger.child({ mailId: row.id, attempt: row.attempts });
    if (row.expired) {
      await finishMail(this.pool, row.id, 'failed', 'expired before it could be sent');
      log.warn('mail expired before it could be sent');
      return;
    }
    try {
      await this.transport.send({
        id: row.id,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.headers ? { headers: row.headers } : {}),
      });
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      if (row.attempts >= this.#options.maxAttempts) {
        await finishMail(this.pool, row.id, 'failed', reason);
        log.error({ err }, 'mail failed: giving up');
      } else {
        const delay = Math.min(this.#options.retryDelayMs * 2 ** (row.attempts - 1), this.#options.maxRetryDelayMs);
        await scheduleMailRetry(this.pool, row.id, delay, reason);
        log.warn({ err, retryInMs: delay }, 'mail not sent; will retry');
      }
      return;
    }
    await finishMail(this.pool, row.id, 'sent', null);
    log.info('mail sent');
  }
}
