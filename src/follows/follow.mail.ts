import { escapeHtml } from '../mail/mail.message.js';
import type { NewMail } from '../mail/mail.repository.js';
import { newId } from '../shared/ids.js';
import { DEFAULT_LOCALE, messagesFor } from '../shared/messages.js';
import { CONFIRM_WITHIN_DAYS } from './follow.repository.js';
import { signLink } from './follow.tokens.js';
import { logoPath } from '../businesses/logo.image.js';

/** A follow as its messages need it. */
export interface MailedFollow {
  id: string;
  email: string;
  link_key: Buffer;
  /** The language the follower reads (the catalogue's name): the one they followed in. */
  locale?: string;
}

/** The business's brand in its emails: the logo (an absolute URL: mail clients fetch it) and the colour of links. */
export interface MailBrand {
  business: string;
  color: string | null;
  logo: { url: string; width: number; height: number } | null;
}

/** What a business's row says of its brand (migrations/0058_brand.sql), as the mail queries read it. */
export interface BrandColumns {
  business_id: string;
  brand_color: string | null;
  logo: { hash: string; content_type: 'image/png' | 'image/jpeg'; width: number; height: number } | null;
}

/** The logo is shown at most this high in an email. */
const MAIL_LOGO_HEIGHT = 64;

/**
 * The brand as an email shows it. Without a public base URL (PUBLIC_BASE_URL unset) there is no address
 * a mail client could fetch the logo from: the name alone is shown.
 */
export function mailBrand(baseUrl: string | null, business: string, row: BrandColumns): MailBrand {
  const logo = row.logo && baseUrl ? row.logo : null;
  const scale = logo ? Math.min(1, MAIL_LOGO_HEIGHT / logo.height) : 1;
  return {
    business,
    color: row.brand_color,
    logo:
      logo && baseUrl
        ? {
            url: `${baseUrl.replace(/\/+$/, '')}${logoPath(row.business_id, logo)}`,
            width: Math.max(1, Math.round(logo.width * scale)),
            height: Math.max(1, Math.round(logo.height * scale)),
          }
        : null,
  };
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
  content: { subject: string; paragraphs: string[]; links: { url: string; label: string }[]; brand?: MailBrand },
): NewMail {
  const { t } = messagesFor(follow.locale ?? DEFAULT_LOCALE);
  const { unsubscribe } = followLinks(baseUrl, follow);
  const footer = t('mail.follow.footer', { url: unsubscribe });
  const text = [
    ...content.paragraphs,
    ...content.links.map((link) => `${link.label}:\n${link.url}`),
    '--',
    footer,
  ].join('\n\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const { brand } = content;
  // A colour is `#rrggbb` by the column's own check: nothing in it needs escaping.
  const linkStyle = brand?.color ? ` style="color: ${brand.color}"` : '';
  const logo = brand?.logo
    ? [
        `<p><img src="${escapeHtml(brand.logo.url)}" alt="${escapeHtml(brand.business)}" width="${brand.logo.width}" ` +
          `height="${brand.logo.height}" style="border: 0; display: block"></p>`,
      ]
    : [];
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...logo,
    ...content.paragraphs.map(paragraph),
    ...content.links.map(
      (link) => `<p><a href="${escapeHtml(link.url)}"${linkStyle}>${escapeHtml(link.label)}</a></p>`,
    ),
    `<p style="font-size: 0.875em; color: #555"><a href="${escapeHtml(unsubscribe)}">${escapeHtml(t('mail.follow.unsubscribe'))}</a></p>`,
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
  { business, code, suggestionId, brand }: { business: string; code: string; suggestionId: string; brand?: MailBrand },
): NewMail {
  const { t } = messagesFor(follow.locale ?? DEFAULT_LOCALE);
  return followerMail(baseUrl, follow, {
    subject: t('mail.follow.confirm.subject', { business }),
    paragraphs: [
      t('mail.follow.confirm.asked', { business }),
      t('mail.follow.confirm.nothing_more', { days: CONFIRM_WITHIN_DAYS }),
    ],
    links: [
      { url: suggestionOnPage(baseUrl, code, suggestionId), label: t('mail.follow.confirm.on_page', { business }) },
      { url: followLinks(baseUrl, follow).confirm, label: t('mail.follow.confirm.button') },
    ],
    brand,
  });
}

/** What one notification says: the status's move, the reply (new or as it stands), and where to see it. */
export interface NoticeContent {
  business: string;
  suggestion: string;
  status?: { from: string; to: string };
  reply?: { content: string; changed: boolean };
  /** The suggestion on the public page; none once it is rejected (the page no longer shows it). */
  pageUrl?: string;
  brand?: MailBrand;
}

export function notificationMail(baseUrl: string, follow: MailedFollow, notice: NoticeContent): NewMail {
  const { t } = messagesFor(follow.locale ?? DEFAULT_LOCALE);
  const business = notice.business;
  /** The statuses a follower hears of, in words (the page's, and `rejected`, which the page never shows). */
  const status = (value: string) => t(`mail.follow.status.${value}`);
  const excerpt = notice.suggestion.length > 140 ? `${notice.suggestion.slice(0, 140)}…` : notice.suggestion;
  const paragraphs = [t('mail.follow.notice.news', { business }), t('mail.follow.notice.quote', { text: excerpt })];
  if (notice.status) {
    paragraphs.push(t('mail.follow.notice.status', { from: status(notice.status.from), to: status(notice.status.to) }));
  }
  if (notice.reply) {
    const words = notice.reply.changed ? 'mail.follow.notice.answered' : 'mail.follow.notice.answer';
    paragraphs.push(t(words, { business, reply: notice.reply.content }));
  }
  const subject = notice.status
    ? t('mail.follow.notice.subject_status', { status: status(notice.status.to), business })
    : t('mail.follow.notice.subject_reply', { business });
  return followerMail(baseUrl, follow, {
    subject,
    paragraphs,
    links: notice.pageUrl ? [{ url: notice.pageUrl, label: t('mail.follow.notice.see') }] : [],
    brand: notice.brand,
  });
}
