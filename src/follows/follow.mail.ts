import { escapeHtml } from '../mail/mail.message.js';
import type { NewMail } from '../mail/mail.repository.js';
import { newId } from '../shared/ids.js';
import { signLink } from './follow.tokens.js';

/** A follow as its messages need it. */
export interface MailedFollow {
  id: string;
  email: string;
  link_key: Buffer;
}

/** Where a follow's links lead: pages of this service, under PUBLIC_BASE_URL. */
export const followLinks = (baseUrl: string, follow: MailedFollow) => {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    confirm: `${base}/follow/confirm?token=${signLink(follow, 'confirm')}`,
    unsubscribe: `${base}/follow/unsubscribe?token=${signLink(follow, 'unsubscribe')}`,
  };
};

/** A subject is one line: names chosen by users (a business's) cannot add headers or lines. */
const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .trim()
    .slice(0, 200);

/** Confirmation links work for 7 days; a message not sent within a day is not sent. */
const LIFETIME_MS = 24 * 60 * 60_000;

/**
 * A message to a follower: paragraphs, links, and, in every one, the one-click unsubscribe
 * headers (RFC 8058: a POST to the URL, no sign-in) and a visible link to the page that does the same.
 */
export function followerMail(
  baseUrl: string,
  follow: MailedFollow,
  content: { subject: string; paragraphs: string[]; links: { url: string; label: string }[] },
): NewMail {
  const { unsubscribe } = followLinks(baseUrl, follow);
  const footer = `To stop these emails, open ${unsubscribe}`;
  const text = [
    ...content.paragraphs,
    ...content.links.map((link) => `${link.label}:\n${link.url}`),
    '--',
    footer,
  ].join('\n\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...content.paragraphs.map(paragraph),
    ...content.links.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`),
    `<p style="font-size: 0.875em; color: #555"><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`,
    '</body></html>',
  ].join('\n');
  return {
    id: newId(),
    recipient: follow.email,
    subject: oneLine(content.subject),
    text: `${text}\n`,
    html,
    lifetimeMs: LIFETIME_MS,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The suggestion at its place on a QR code's page: where a follower's messages send them to see it. */
export const suggestionOnPage = (baseUrl: string, code: string, suggestionId: string) =>
  `${baseUrl.replace(/\/+$/, '')}/f/${code}#s-${suggestionId}`;

/**
 * The one message an unconfirmed address ever gets. Anyone may type any address, so it carries no
 * word a visitor wrote (not the suggestion, which may still await review): only the business's name,
 * chosen by its team, and a link to the suggestion on the page.
 */
export function confirmationMail(
  baseUrl: string,
  follow: MailedFollow,
  { business, code, suggestionId }: { business: string; code: string; suggestionId: string },
): NewMail {
  return followerMail(baseUrl, follow, {
    subject: `Confirm: follow a suggestion to ${business}`,
    paragraphs: [
      `Someone (hopefully you) asked to be emailed when a suggestion to ${business} moves.`,
      'Nothing more is sent unless you confirm. The link works for 7 days; if you did not ask for this, ignore this message and your address is forgotten.',
    ],
    links: [
      { url: suggestionOnPage(baseUrl, code, suggestionId), label: `The suggestion on ${business}’s page` },
      { url: followLinks(baseUrl, follow).confirm, label: 'Confirm and follow' },
    ],
  });
}

/** The statuses a follower hears of, in words (the page's, and `rejected`, which the page never shows). */
const STATUS_WORDS: Record<string, string> = {
  pending: 'Received',
  reviewing: 'Under review',
  in_progress: 'In progress',
  completed: 'Done',
  rejected: 'Not planned',
};

/** What one notification says: the status's move, the reply (new or as it stands), and where to see it. */
export interface NoticeContent {
  business: string;
  suggestion: string;
  status?: { from: string; to: string };
  reply?: { content: string; changed: boolean };
  /** The suggestion on the public page; none once it is rejected (the page no longer shows it). */
  pageUrl?: string;
}

export function notificationMail(baseUrl: string, follow: MailedFollow, notice: NoticeContent): NewMail {
  const excerpt = notice.suggestion.length > 140 ? `${notice.suggestion.slice(0, 140)}…` : notice.suggestion;
  const paragraphs = [`News from ${notice.business} about the suggestion you follow:`, `“${excerpt}”`];
  if (notice.status) {
    paragraphs.push(`Status: ${STATUS_WORDS[notice.status.from]} → ${STATUS_WORDS[notice.status.to]}`);
  }
  if (notice.reply) {
    paragraphs.push(
      `${notice.reply.changed ? `${notice.business} answered` : `${notice.business}’s answer`}: “${notice.reply.content}”`,
    );
  }
  const subject = notice.status
    ? `${STATUS_WORDS[notice.status.to]}: your suggestion to ${notice.business}`
    : `${notice.business} answered a suggestion you follow`;
  return followerMail(baseUrl, follow, {
    subject,
    paragraphs,
    links: notice.pageUrl ? [{ url: notice.pageUrl, label: 'See it on the page' }] : [],
  });
}
