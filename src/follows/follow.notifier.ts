import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction, type Queryable } from '../db/database.js';
import type { Mailer } from '../mail/mail.sender.js';
import {
  claimDueNotice,
  countRecentNotifications,
  deleteNotice,
  deleteOldNotificationLog,
  findUnnotifiedFollowers,
  insertNotificationLog,
  postponeNotice,
  type DueNotice,
} from './follow-notice.repository.js';
import { mailBrand, notificationMail, suggestionOnPage, type NoticeContent } from './follow.mail.js';
import { nextChangelogMessages } from './changelog.notifier.js';

export interface FollowNotifierOptions {
  /** Where links lead: PUBLIC_BASE_URL. */
  baseUrl: string;
  /** FOLLOWER_EMAILS_PER_HOUR: notifications one business may queue in an hour. */
  perBusinessPerHour: number;
  pollIntervalMs: number;
  /** The notifier's time, which notices are due by: tests move it past the grouping window. */
  clock?: () => Date;
}

const NOTIFIED_STATUSES = new Set(['reviewing', 'in_progress', 'completed', 'rejected']);
/** A notice the cap held back, or whose followers were more than the cap left, is tried again this much later. */
const RETRY_MS = 5 * 60_000;
/** Notices handled in one run at most: the rest wait for the next poll. */
const PER_RUN = 200;

/** What the notice has to say, or null: its changes were undone within the window. */
function contentOf(notice: DueNotice, baseUrl: string, code: string | null): NoticeContent | null {
  const status =
    notice.status !== notice.from_status && NOTIFIED_STATUSES.has(notice.status)
      ? { from: notice.from_status, to: notice.status }
      : undefined;
  const replyChanged = notice.reply !== null && notice.reply.content !== notice.from_reply?.content;
  if (!status && !replyChanged) return null;
  const shownOnPage = notice.status !== 'rejected' && code !== null;
  return {
    business: notice.business_name,
    suggestion: notice.content,
    status,
    reply: notice.reply ? { content: notice.reply.content, changed: replyChanged } : undefined,
    pageUrl: shownOnPage ? suggestionOnPage(baseUrl, code, notice.suggestion_id) : undefined,
    brand: mailBrand(baseUrl, notice.business_name, notice),
  };
}

/**
 * Sends followers what became of the suggestions they follow. A change leaves a notice (a trigger,
 * migrations/0024_follow_notices.sql) due 5 minutes later, which later changes join; once due, each
 * confirmed follower gets one message, queued in the mail outbox in the notice's transaction and sent
 * after it commits. Nothing here runs in a request. Only public suggestions that need no review or
 * were approved notify, only while the business's notify_followers is on, and at most
 * `perBusinessPerHour` messages per business per hour (the rest wait).
 */
export class FollowNotifier {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly options: FollowNotifierOptions,
  ) {}

  start(): void {
    if (this.#stopped || this.#timer) return;
    const tick = () => {
      this.#running = this.runDue()
        .catch((err: unknown) => this.logger.warn({ err }, 'follower notices unavailable; retrying at the next poll'))
        .finally(() => {
          this.#running = undefined;
          if (!this.#stopped) this.#timer = setTimeout(tick, this.options.pollIntervalMs).unref();
        });
    };
    this.#timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Handles the notices due at `asOf` (now by default); answers how many messages it queued. */
  async runDue(asOf = this.options.clock?.() ?? new Date()): Promise<number> {
    let queued = 0;
    // Entries first: their messages carry the status notices waiting on the suggestions they name.
    for (let i = 0; i < PER_RUN; i++) {
      const outcome = await withTransaction(this.pool, (tx) =>
        nextChangelogMessages(tx, asOf, {
          ...this.options,
          retryMs: RETRY_MS,
          logger: this.logger,
          mailer: this.mailer,
          contentOf,
        }),
      );
      if (outcome === null) break;
      this.mailer.deliver(outcome);
      queued += outcome.length;
    }
    for (let i = 0; i < PER_RUN; i++) {
      const outcome = await withTransaction(this.pool, (tx) => this.#handleOne(tx, asOf));
      if (outcome === null) break;
      this.mailer.deliver(outcome);
      queued += outcome.length;
    }
    await deleteOldNotificationLog(this.pool);
    return queued;
  }

  /** One due notice: null when none is left; otherwise the messages it queued. */
  async #handleOne(tx: Queryable, asOf: Date): Promise<string[] | null> {
    const notice = await claimDueNotice(tx, asOf);
    if (!notice) return null;
    const done = () => deleteNotice(tx, notice.business_id, notice.id).then(() => []);
    if (!notice.shown || !notice.notify_followers) return done();
    const left = this.options.perBusinessPerHour - (await countRecentNotifications(tx, notice.business_id));
    if (left <= 0) {
      await postponeNotice(tx, notice.business_id, notice.id, RETRY_MS);
      this.logger.warn({ businessId: notice.business_id }, 'follower emails: hourly cap reached; notice postponed');
      return [];
    }
    const followers = await findUnnotifiedFollowers(tx, notice, left);
    const ids: string[] = [];
    for (const follower of followers) {
      const content = contentOf(notice, this.options.baseUrl, follower.code);
      if (!content) return done();
      const mail = notificationMail(this.options.baseUrl, follower, content);
      await this.mailer.enqueue(tx, mail);
      ids.push(mail.id);
    }
    await insertNotificationLog(
      tx,
      notice.business_id,
      notice.id,
      followers.map((follower) => follower.id),
    );
    if (followers.length < left) await deleteNotice(tx, notice.business_id, notice.id);
    else await postponeNotice(tx, notice.business_id, notice.id, RETRY_MS);
    return ids;
  }
}
