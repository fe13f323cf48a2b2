import type { NewMail } from '../mail/mail.repository.js';
import { messagesFor } from '../shared/messages.js';
import { followerMail, type MailBrand, type MailedFollow } from './follow.mail.js';

/** What one follower address hears of an entry: the suggestions of theirs it names, and where each stands. */
export interface ChangelogContent {
  business: string;
  title: string;
  /** The body as plain text, shortened. */
  excerpt: string;
  suggestions: {
    content: string;
    /** A status notice waiting on it, carried here instead of in a message of its own. */
    status?: { from: string; to: string };
    reply?: { content: string; changed: boolean };
  }[];
  /** The entry on the public page the address followed from; none when that page is gone. */
  entryUrl?: string;
  brand?: MailBrand;
}

const excerptOf = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);

/**
 * The one message an address gets about a published entry, however many of the suggestions it
 * follows the entry names: the entry, then each of those suggestions with the status or reply news
 * a waiting notice had for it. Its unsubscribe links (RFC 8058) are those of one of its follows, as
 * every follower message's are (followerMail).
 */
export function changelogMail(baseUrl: string, follow: MailedFollow, content: ChangelogContent): NewMail {
  const { business } = content;
  const { t } = messagesFor(follow.locale);
  const paragraphs = [
    t('mail.changelog.intro', { business, count: content.suggestions.length }),
    content.title,
    ...(content.excerpt ? [content.excerpt] : []),
  ];
  for (const suggestion of content.suggestions) {
    paragraphs.push(t('mail.changelog.suggestion', { suggestion: excerptOf(suggestion.content) }));
    if (suggestion.status) {
      paragraphs.push(
        t('mail.changelog.status', {
          from: t(`mail.changelog.status.${suggestion.status.from}`),
          to: t(`mail.changelog.status.${suggestion.status.to}`),
        }),
      );
    }
    if (suggestion.reply) {
      const key = suggestion.reply.changed ? 'mail.changelog.reply.new' : 'mail.changelog.reply.standing';
      paragraphs.push(t(key, { business, reply: suggestion.reply.content }));
    }
  }
  return followerMail(baseUrl, follow, {
    subject: t('mail.changelog.subject', { business, title: content.title }),
    paragraphs,
    links: content.entryUrl ? [{ url: content.entryUrl, label: t('mail.changelog.link') }] : [],
    brand: content.brand,
  });
}

/** An entry at its place on a QR code's page. */
export const entryOnPage = (baseUrl: string, code: string, entryId: string) =>
  `${baseUrl.replace(/\/+$/, '')}/f/${code}/changelog/${entryId}`;
