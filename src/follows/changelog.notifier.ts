import type { Logger } from 'pino';
import type { Queryable } from '../db/database.js';
import type { Mailer } from '../mail/mail.sender.js';
import { plainText } from '../shared/markdown.js';
import {
  claimDueChangelogNotice,
  deleteChangelogNotice,
  findChangelogRecipients,
  findWaitingNotices,
  insertChangelogLog,
  postponeChangelogNotice,
  type ChangelogRecipient,
} from './changelog-notice.repository.js';
import { changelogMail, entryOnPage, type ChangelogContent } from './changelog.mail.js';
import { countRecentNotifications, type DueNotice } from './follow-notice.repository.js';
import { mailBrand, type BrandColumns, type NoticeContent } from './follow.mail.js';

/** What the follow notifier lends the changelog's messages: its options, outbox, log and wording of notices. */
export interface ChangelogSending {
  baseUrl: string;
  perBusinessPerHour: number;
  retryMs: number;
  logger: Logger;
  mailer: Mailer;
  contentOf: (notice: DueNotice, baseUrl: string, code: string | null) => NoticeContent | null;
}

/** One address's message: the entry, and each suggestion of theirs it names with its waiting notice's news. */
function contentFor(
  recipient: ChangelogRecipient,
  entry: { id: string; business_name: string; title: string; body: string } & BrandColumns,
  waiting: Map<string, DueNotice>,
  sending: ChangelogSending,
): ChangelogContent {
  const code = recipient.follows.find((follow) => follow.code !== null)?.code ?? null;
  return {
    business: entry.business_name,
    title: entry.title,
    excerpt: plainText(entry.body, 280),
    suggestions: recipient.follows.map((follow) => {
      const notice = waiting.get(follow.suggestion_id);
      const news = notice && sending.contentOf(notice, sending.baseUrl, follow.code);
      return {
        content: follow.content,
        ...(news?.status ? { status: news.status } : {}),
        ...(news?.reply ? { reply: news.reply } : {}),
      };
    }),
    ...(code ? { entryUrl: entryOnPage(sending.baseUrl, code, entry.id) } : {}),
    brand: mailBrand(sending.baseUrl, entry.business_name, entry),
  };
}

/**
 * One due changelog notice (docs/changelog.md): each confirmed follower address of the suggestions the
 * entry names gets one message, queued in this transaction, however many of them it follows. The
 * status notices waiting on those suggestions ride along: their news is in the message, and the
 * follows it reached are logged under them, so their own run skips them. The same hourly cap as the
 * status notices (FOLLOWER_EMAILS_PER_HOUR), one count per message; the business's notify_followers
 * off sends nothing. Null when no notice is due; otherwise the ids of the messages queued.
 */
export async function nextChangelogMessages(
  tx: Queryable,
  asOf: Date,
  sending: ChangelogSending,
): Promise<string[] | null> {
  const notice = await claimDueChangelogNotice(tx, asOf);
  if (!notice) return null;
  const { business_id: businessId } = notice;
  if (!notice.notify_followers || notice.suggestion_ids.length === 0) {
    await deleteChangelogNotice(tx, businessId, notice.id);
    return [];
  }
  const left = sending.perBusinessPerHour - (await countRecentNotifications(tx, businessId));
  if (left <= 0) {
    await postponeChangelogNotice(tx, businessId, notice.id, sending.retryMs);
    sending.logger.warn({ businessId }, 'follower emails: hourly cap reached; changelog notice postponed');
    return [];
  }
  const recipients = await findChangelogRecipients(tx, notice, left);
  const waiting = new Map(
    (await findWaitingNotices(tx, businessId, notice.suggestion_ids))
      .filter((waitingNotice) => waitingNotice.shown)
      .map((waitingNotice) => [waitingNotice.suggestion_id, waitingNotice]),
  );
  const entry = { ...notice, id: notice.entry_id };
  const ids: string[] = [];
  for (const recipient of recipients) {
    const first = recipient.follows[0]!;
    const mail = changelogMail(
      sending.baseUrl,
      { ...first, email: recipient.email },
      contentFor(recipient, entry, waiting, sending),
    );
    await sending.mailer.enqueue(tx, mail);
    ids.push(mail.id);
    await insertChangelogLog(tx, businessId, [
      ...recipient.follows.map((follow) => ({ noticeId: notice.id, followId: follow.id, counted: follow === first })),
      ...recipient.follows.flatMap((follow) => {
        const carried = waiting.get(follow.suggestion_id);
        return carried ? [{ noticeId: carried.id, followId: follow.id, counted: false }] : [];
      }),
    ]);
  }
  if (recipients.length < left) await deleteChangelogNotice(tx, businessId, notice.id);
  else await postponeChangelogNotice(tx, businessId, notice.id, sending.retryMs);
  return ids;
}
