import type pg from 'pg';
import { withTransaction } from '../db/database.js';
import { HttpError, notFound, RateLimitError } from '../errors/http-error.js';
import type { Mailer } from '../mail/mail.sender.js';
import { newId } from '../shared/ids.js';
import { DEFAULT_LOCALE, resolveLocale } from '../shared/messages.js';
import { findSuggestion } from '../suggestions/suggestion.repository.js';
import { confirmationMail, mailBrand, type BrandColumns } from './follow.mail.js';
import {
  confirmFollow,
  deleteExpiredFollows,
  deleteFollows,
  findFollowable,
  findFollowById,
  findFollowers,
  insertFollow,
  type FollowerRow,
  type LinkedFollowRow,
} from './follow.repository.js';
import { countPendingFollows, followSendsWait, insertPostedUse, lockFollowSends } from './follow-limits.repository.js';
import { linkId, linkValid, newLinkKey, type LinkPurpose } from './follow.tokens.js';

/** Where a follow comes from: a QR code's page of a business. */
export interface FollowPlace {
  business_id: string;
  business_name: string;
  qr_code_id: string;
  /** The QR code's code: the confirmation links to the suggestion on this page. */
  code: string;
  /** The business's brand, for the confirmation's logo and links (none: the name alone). */
  brand_color?: string | null;
  logo?: BrandColumns['logo'];
}

/** How follow confirmations are sent: the mail outbox, the links' base, and the business's hourly cap. */
export interface FollowSending {
  mailer: Mailer;
  baseUrl: string;
  /** PUBLIC_BASE_URL when it is set: the only base a mail client could fetch the logo from. */
  logoBaseUrl: string | null;
  /** FOLLOW_CONFIRMATIONS_PER_HOUR: new follows (each one confirmation) a business takes in an hour. */
  confirmationsPerHour: number;
}

const HOUR_MS = 60 * 60 * 1000;

/** Unconfirmed follows past their 7 days that each new follow deletes. */
const PRUNE_PER_FOLLOW = 20;
/**
 * Confirmations one address may be waiting on in a business: someone typing another person's address
 * on every suggestion sends it this many, and then nothing until it confirms one or a week passes.
 */
export const PENDING_PER_ADDRESS = 3;

/** A posted_token starts one follow: a second use, whatever address it names, is this 409. */
const postedTokenUsed = () =>
  new HttpError(
    409,
    'This posted_token has already started a follow: it starts one, once. Check the inbox of the address it named.',
    'POSTED_TOKEN_USED',
  );

/**
 * An address asks to follow a suggestion the page shows, or (`ownPost`: the caller checked its
 * posted_token) the feedback it has just posted, while that awaits review. A new follow is
 * unconfirmed, and its one confirmation (which quotes nothing a visitor wrote) is queued in the same
 * transaction and sent after commit, never delaying the answer. An address that already follows it, confirmed or not, or that already
 * waits on PENDING_PER_ADDRESS confirmations from the business, gets nothing more; the answer is the
 * same either way: the page never tells who follows what. A posted_token is spent by the follow that
 * carries it, whatever became of it, unless the follow is refused (404, 429). The business's follows
 * take turns from the counts to the insert, so both caps are exact however many arrive at once.
 */
export async function followSuggestion(
  pool: pg.Pool,
  sending: FollowSending,
  place: FollowPlace,
  {
    suggestionId,
    email,
    ownPost = false,
    locale = DEFAULT_LOCALE,
  }: { suggestionId: string; email: string; ownPost?: boolean; locale?: string },
): Promise<void> {
  const mailIds = await withTransaction(pool, async (tx) => {
    // The turn first: a follow waiting for it holds no row another's prune or insert would wait on.
    await lockFollowSends(tx, place.business_id);
    await deleteExpiredFollows(tx, PRUNE_PER_FOLLOW);
    if (!(await findFollowable(tx, place.business_id, suggestionId, ownPost))) throw notFound('Suggestion');
    if (ownPost && !(await insertPostedUse(tx, place.business_id, suggestionId))) throw postedTokenUsed();
    if ((await countPendingFollows(tx, place.business_id, email)) >= PENDING_PER_ADDRESS) return [];
    const wait = await followSendsWait(tx, place.business_id, { ms: HOUR_MS, limit: sending.confirmationsPerHour });
    if (wait !== null) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      throw new RateLimitError(
        seconds,
        `This business has sent as many follow confirmations as it may in an hour; retry in ${seconds} s`,
        'FOLLOW_LIMIT',
      );
    }
    const follow = await insertFollow(tx, place.business_id, {
      id: newId(),
      suggestionId,
      qrCodeId: place.qr_code_id,
      email,
      linkKey: newLinkKey(),
      locale: resolveLocale(locale),
    });
    if (!follow) return [];
    const mail = confirmationMail(sending.baseUrl, follow, {
      business: place.business_name,
      code: place.code,
      suggestionId,
      brand: mailBrand(sending.logoBaseUrl, place.business_name, {
        business_id: place.business_id,
        brand_color: place.brand_color ?? null,
        logo: place.logo ?? null,
      }),
    });
    await sending.mailer.enqueue(tx, mail);
    return [mail.id];
  });
  sending.mailer.deliver(mailIds);
}

/** Codes the link pages word for a follower (`page.error.LINK_*`), not the feedback page's 404 and 410. */
const invalidLink = () => new HttpError(404, 'This link is not valid', 'LINK_INVALID');
const expiredLink = () =>
  new HttpError(410, 'This confirmation link has expired: follow the suggestion again', 'LINK_EXPIRED');

/** What a follow link's page names: the business, and the suggestion while the page shows it. */
export interface LinkSubject {
  business: string;
  suggestion: string | null;
}

const subjectOf = (follow: LinkedFollowRow): LinkSubject => ({
  business: follow.business_name,
  suggestion: follow.shown_content,
});

/** The follow a link names and signs for `purpose`; null when it names none (unsubscribed already). */
async function followOfLink(pool: pg.Pool, token: unknown, purpose: LinkPurpose) {
  const id = linkId(token);
  if (!id) throw invalidLink();
  const follow = await findFollowById(pool, id);
  if (follow && !linkValid(follow, purpose, token as string)) throw invalidLink();
  return follow;
}

/** What a confirmation link is about, changing nothing (mail scanners open links); past its 7 days, a 410. */
export async function readConfirmLink(pool: pg.Pool, token: unknown): Promise<LinkSubject> {
  const follow = await followOfLink(pool, token, 'confirm');
  if (!follow) throw invalidLink();
  if (follow.expired) throw expiredLink();
  return subjectOf(follow);
}

/** Confirms a follow from its link; a link past its 7 days is a 410 (the follow is forgotten). */
export async function confirmFollowLink(pool: pg.Pool, token: unknown): Promise<LinkSubject> {
  const follow = await followOfLink(pool, token, 'confirm');
  if (!follow) throw invalidLink();
  if (follow.expired) {
    await deleteFollows(pool, follow.business_id, follow, false);
    throw expiredLink();
  }
  if (!follow.confirmed_at) await confirmFollow(pool, follow.business_id, follow.id);
  return subjectOf(follow);
}

/** What an unsubscribe link's page says about it, before anything is done. */
export async function readUnsubscribeLink(pool: pg.Pool, token: unknown): Promise<{ businessName: string } | null> {
  const follow = await followOfLink(pool, token, 'unsubscribe');
  return follow ? { businessName: follow.business_name } : null;
}

/**
 * Unsubscribes from the suggestion, or (`everything`) from every suggestion of the business: the
 * follows are deleted, address and all. A link whose follow is gone already unsubscribed: nothing to do.
 */
export async function unsubscribeLink(pool: pg.Pool, token: unknown, everything: boolean): Promise<void> {
  const follow = await followOfLink(pool, token, 'unsubscribe');
  if (follow) await deleteFollows(pool, follow.business_id, follow, everything);
}

/** The confirmed followers of a suggestion of the business (at most 1000). */
export async function listFollowers(pool: pg.Pool, businessId: string, suggestionId: string): Promise<FollowerRow[]> {
  if (!(await findSuggestion(pool, businessId, suggestionId))) throw notFound('Suggestion');
  return findFollowers(pool, businessId, suggestionId, 1000);
}
