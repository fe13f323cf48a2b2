import type pg from 'pg';
import { inTransaction } from '../db/database.js';
import { customer } from '../outbox/outbox.service.js';
import { conflict, HttpError, notFound } from '../errors/http-error.js';
import type { ListCache } from '../cache/list-cache.js';
import type { VoteAllowance } from '../http/rate-limit.js';
import type { Services } from '../http/route.js';
import type { FollowSending } from '../follows/follow.service.js';
import { findSimilarToText, type SimilarRow } from '../merges/merge.similarity.js';
import { createSuggestion } from '../suggestions/suggestion.service.js';
import { castVote, votedBy, withdrawVote } from '../votes/vote.service.js';
import type { AcceptedForm } from './page.security.js';
import {
  deleteExpiredFormTokens,
  findCodeTarget,
  findPublicSuggestion,
  findPublicSuggestions,
  findShownPlace,
  findUsedFormToken,
  insertUsedFormToken,
  type CodeTarget,
  type PublicSort,
  type PublicSuggestionRow,
} from './page.repository.js';

export const PAGE_SIZE = 20;

export const codeInactive = () => new HttpError(410, 'This feedback code is no longer active', 'CODE_INACTIVE');

/** A form token sends feedback once: the JSON side refuses it again with this 409. */
export const formAlreadySent = () =>
  conflict('This form_token has already sent its feedback: list the suggestions again for a new one');

/** The business and location behind a code: unknown is a 404, inactive a 410. */
export async function openCode(pool: pg.Pool, code: string): Promise<CodeTarget> {
  const target = await findCodeTarget(pool, code);
  if (!target) throw notFound('Feedback page');
  if (!target.active) throw codeInactive();
  return target;
}

export interface PublicItem extends PublicSuggestionRow {
  voted: boolean;
}

/** How long a cached Trending order may be kept while nothing changes: it moves with the clock. */
export const TRENDING_REFRESH_MS = 60_000;

type PublicWindow = { rows: PublicSuggestionRow[]; total: number };

/**
 * Names a window of a business's page in the list cache, under its change number (docs/caching.md).
 * Trending's order also moves with the clock, so its name holds the minute: kept a minute at most.
 */
export function windowKey(target: CodeTarget, sort: PublicSort, offset: number): string {
  const epoch = sort === 'trending' ? ` ${Math.floor(Date.now() / TRENDING_REFRESH_MS)}` : '';
  return `${target.business_id} ${sort} ${offset}${epoch}`;
}

/**
 * Windows being read, by cache key and change number: the requests that miss the same window at once
 * (every visitor of a busy page when Trending's minute turns, or after a change) wait for one read
 * instead of each running it. At 100,000 public suggestions Trending ranks them all, and fifty
 * requests doing so at once held the page for one to three seconds (bench/README.md "Public rows").
 */
const windowsInFlight = new Map<string, Promise<PublicWindow>>();

/**
 * The suggestions of one page window, from the list cache while the business has not changed since
 * (docs/caching.md: the same exact, never-stale rule as the API's lists; `target` read the change
 * number first). A window being read for the same change number is awaited, not read again: what it
 * answers is as exact for this request as a kept one.
 */
async function publicWindow(
  pool: pg.Pool,
  cache: ListCache,
  target: CodeTarget,
  sort: PublicSort,
  offset: number,
): Promise<PublicWindow> {
  const key = `public-page ${windowKey(target, sort, offset)}`;
  const kept = cache.get(key, target.change_number);
  if (kept) {
    const window = JSON.parse(kept.toString()) as PublicWindow;
    for (const row of window.rows) row.created_at = new Date(row.created_at);
    return window;
  }
  const flight = `${key} ${target.change_number}`;
  const reading = windowsInFlight.get(flight);
  if (reading) return reading;
  const read = findPublicSuggestions(pool, target.business_id, { sort, limit: PAGE_SIZE, offset }).then((window) => {
    cache.set(key, target.change_number, Buffer.from(JSON.stringify(window)));
    return window;
  });
  windowsInFlight.set(flight, read);
  try {
    return await read;
  } finally {
    windowsInFlight.delete(flight);
  }
}

/** One page (PAGE_SIZE, from `offset`) of the suggestions the page shows, marked with this voter's votes. */
export async function listPublicSuggestions(
  pool: pg.Pool,
  cache: ListCache,
  target: CodeTarget,
  sort: PublicSort,
  offset: number,
  voterToken: string | undefined,
): Promise<{ items: PublicItem[]; total: number }> {
  const { rows, total } = await publicWindow(pool, cache, target, sort, offset);
  const voted = voterToken
    ? await votedBy(
        pool,
        target.business_id,
        { type: 'anonymous', token: voterToken },
        rows.map((row) => row.id),
      )
    : new Set<string>();
  return { items: rows.map((row) => ({ ...row, voted: voted.has(row.id) })), total };
}

/** The page's similar-while-typing answers at most this many. */
export const SIMILAR_ON_PAGE = 5;

/**
 * What the page shows that is like `text`, the most alike first: the finder merging uses
 * (merges/merge.similarity.ts), over the suggestions the page shows only.
 */
export function similarOnPage(pool: pg.Pool, target: CodeTarget, text: string): Promise<SimilarRow[]> {
  return findSimilarToText(pool, target.business_id, text, { limit: SIMILAR_ON_PAGE, scope: 'public' });
}

/**
 * The suggestion of the page a link or a form names: itself, or the one it is merged into (the page
 * redirects there); null when the page shows neither.
 */
export function shownPlaceOf(pool: pg.Pool, target: CodeTarget, id: string): Promise<string | null> {
  return findShownPlace(pool, target.business_id, id);
}

/** A suggestion the page shows, or null (not public, awaiting review, rejected, another business's). */
export async function findShownSuggestion(
  pool: pg.Pool,
  target: CodeTarget,
  id: string,
  voterToken: string | undefined,
): Promise<PublicItem | null> {
  const row = await findPublicSuggestion(pool, target.business_id, id);
  if (!row) return null;
  const voted = voterToken
    ? await votedBy(pool, target.business_id, { type: 'anonymous', token: voterToken }, [row.id])
    : new Set<string>();
  return { ...row, voted: voted.has(row.id) };
}

export interface Feedback {
  content: string;
  customer_name?: string;
  customer_email?: string;
}

export interface PostedFeedback {
  id: string;
  awaitingReview: boolean;
  /** As the page shows it; null while awaiting review, and for a repeated post. */
  item: PublicItem | null;
  /** True when this form had already sent its feedback: nothing new was stored; id and awaitingReview are the first post's. */
  repeated: boolean;
}

/** Expired form tokens each post prunes: more than one, so the table shrinks whenever posts come. */
const PRUNE_PER_POST = 20;

/** Thrown inside the post's transaction to roll its suggestion back. */
class RepeatedForm extends Error {}

/** What the first post with this form answered, for a repeated one. */
async function repeatedPost(pool: pg.Pool, businessId: string, digest: Buffer): Promise<PostedFeedback | null> {
  const used = await findUsedFormToken(pool, businessId, digest);
  if (!used) return null;
  return { id: used.suggestion_id, awaitingReview: used.awaiting_review, item: null, repeated: true };
}

/**
 * A customer's feedback becomes a `public` suggestion from the QR code, at its location, analysed like
 * any other; on a business that requires approval it waits for review before the page shows it. Each
 * form sends feedback once: its token is recorded in the suggestion's transaction, and a form sent
 * again (a double click, a reload of the post, a replay) is rolled back and answers as the first post
 * did. Replays are rare, so they are found by the token's unique digest rather than looked up first.
 */
export async function postFeedback(
  pool: pg.Pool,
  target: CodeTarget,
  feedback: Feedback,
  form: AcceptedForm,
  now: Date,
): Promise<PostedFeedback> {
  try {
    return await inTransaction(pool, async () => {
      await deleteExpiredFormTokens(pool, now, PRUNE_PER_POST);
      const row = await createSuggestion(
        pool,
        customer(target.business_id, target.qr_code_id),
        {
          content: feedback.content,
          customer_name: feedback.customer_name,
          customer_email: feedback.customer_email,
          visibility: 'public',
          status: 'pending',
          priority: 'medium',
          location_id: target.location_id ?? undefined,
          tags: [],
        },
        'qr_code',
      );
      const awaitingReview = row.review_state === 'pending';
      const first = await insertUsedFormToken(pool, target.business_id, {
        ...form,
        suggestionId: row.id,
        awaitingReview,
      });
      // Sent before, or at the same time by a post that committed first: this one is rolled back.
      if (!first) throw new RepeatedForm();
      const item: PublicItem | null = awaitingReview
        ? null
        : {
            id: row.id,
            content: row.content,
            status: 'pending',
            customer_name: row.customer_name,
            upvote_count: row.upvote_count,
            created_at: row.created_at,
            reply: null,
            tags: [],
            voted: false,
          };
      return { id: row.id, awaitingReview, item, repeated: false };
    });
  } catch (err) {
    if (!(err instanceof RepeatedForm)) throw err;
  }
  const committed = await repeatedPost(pool, target.business_id, form.digest);
  // Its row pruned meanwhile (by an instance whose clock is ahead): all that can be said is that it was used.
  if (!committed) throw formAlreadySent();
  return committed;
}

/** A browser voting on the page: its anonymous token, and the address it votes from. */
export interface PageVoter {
  token: string;
  address: string;
}

/**
 * The page's voter votes for, or takes back a vote on, a suggestion the page shows. A new vote takes
 * one of the places its address has for the suggestion (a browser that drops its cookie is a new
 * voter each time; its address is not): refused with a 429 when they are spent, given back when the
 * vote was not new or not cast.
 */
export async function setPageVote(
  pool: pg.Pool,
  target: CodeTarget,
  suggestionId: string,
  voter: PageVoter,
  voted: boolean,
  allowance: VoteAllowance,
): Promise<{ changed: boolean; upvoteCount: number }> {
  const by = customer(target.business_id, target.qr_code_id);
  const anonymous = { type: 'anonymous', token: voter.token } as const;
  if (!voted) {
    const outcome = await withdrawVote(pool, by, suggestionId, { voter: anonymous }, { publicOnly: true });
    return { changed: outcome.removed, upvoteCount: outcome.upvoteCount };
  }
  const place = await allowance.take(voter.address, suggestionId);
  try {
    const outcome = await castVote(pool, by, suggestionId, anonymous, { publicOnly: true });
    if (!outcome.created) await place.giveBack();
    return { changed: outcome.created, upvoteCount: outcome.upvoteCount };
  } catch (err) {
    await place.giveBack();
    throw err;
  }
}

/** How the page's follows send their confirmations: the app's mail outbox, base URL and hourly cap. */
export const followSending = (services: Services): FollowSending => ({
  mailer: services.mail,
  baseUrl: services.publicBaseUrl,
  logoBaseUrl: services.publicBaseUrlConfigured ? services.publicBaseUrl : null,
  confirmationsPerHour: services.publicPage.followConfirmationsPerHour,
});
