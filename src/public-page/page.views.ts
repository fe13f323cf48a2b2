import { hashedAsset, templates } from '../http/pages.js';
import { DEFAULT_LOCALE, messagesFor, type Messages } from '../shared/messages.js';
import type { RoadmapStatus } from '../businesses/business.schemas.js';
import type { PublicSort } from './page.repository.js';
import type { PageBrand } from './page.brand.js';
import { directionOf, PAGE_LANGUAGES } from './page.locale.js';
import type { toPublicSuggestion } from './page.presenter.js';

// No template of the public pages has a line break inside a <pre> or <textarea>: they can be compact.
const eta = templates('', { compact: true });

export const ASSETS = [hashedAsset('page.css', 'text/css'), hashedAsset('page.js', 'text/javascript')];
const assetPaths = { css: ASSETS[0]!.path, js: ASSETS[1]!.path };

type Item = ReturnType<typeof toPublicSuggestion>;

export interface PageView {
  code: string;
  business_name: string;
  location_name: string | null;
  sort: PublicSort;
  offset: number;
  next_offset: number | null;
  items: Item[];
  thanks?: 'shown' | 'review';
  thanked?: Item | null;
  /** Feedback this browser just posted, awaiting review: it may follow it with its posted proof. */
  ownFollow?: { id: string; posted: string } | null;
  /** A follow was asked for: its confirmation is on its way (when the address is new). */
  followed?: boolean;
  /** The suggestion this browser just voted for: the page offers to follow it. */
  voted?: Item | null;
  /** Whether the business shows its roadmap: the page links to it. */
  roadmap: boolean;
  /** The business's stylesheet and logo (page.brand.ts). */
  brand?: PageBrand;
  form: { token: string; error?: string; content?: string; customer_name?: string; customer_email?: string };
}

/**
 * The language switch: each language named in itself (an autonym is how a reader finds their own),
 * a plain link (`?lang=`), so it works without JavaScript.
 */
const AUTONYMS: Record<string, string> = {
  ar: 'العربية',
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  ja: '日本語',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
};
const LANGUAGE_LINKS = PAGE_LANGUAGES.map((code) => ({ code, name: AUTONYMS[code] ?? code }));

const SORTS: PublicSort[] = ['trending', 'top', 'new'];

/**
 * What every public template is given besides its own data: the reader's words (`it.t(key, values)`),
 * numbers (`it.number`), `<html lang>` (`it.locale`) and the assets.
 */
const frame = (messages: Messages, script: boolean, brand?: PageBrand) => ({
  t: messages.t,
  number: messages.number,
  locale: messages.locale,
  dir: directionOf(messages.locale),
  languages: LANGUAGE_LINKS.map((language) => ({ ...language, current: language.code === messages.locale })),
  assets: assetPaths,
  script,
  brandCss: brand?.css ?? null,
});

export function renderPage(view: PageView, locale = DEFAULT_LOCALE): string {
  const messages = messagesFor(locale);
  const title = messages.t('page.title', { business: view.business_name });
  const form = { content: '', customer_name: '', customer_email: '', ...view.form };
  const sorts = SORTS.map((value) => ({ value, label: messages.t(`page.sort.${value}`) }));
  return eta.render('page', { ...view, ...frame(messages, true, view.brand), form, title, sorts });
}

/** What a roadmap card shows: never an email, never anything internal. */
export interface RoadmapCard {
  id: string;
  content: string;
  customer_name: string | null;
  upvote_count: number;
  voted: boolean;
}

export interface RoadmapView {
  code: string;
  business_name: string;
  location_name: string | null;
  columns: { status: RoadmapStatus; title: string; status_label: string; total: number; items: RoadmapCard[] }[];
  brand?: PageBrand;
}

/** The roadmap page: its words from the catalogue (`roadmap.*`); its script only enhances the votes. */
export function renderRoadmap(view: RoadmapView, locale = DEFAULT_LOCALE): string {
  const messages = messagesFor(locale);
  const title = messages.t('roadmap.page.title', { business: view.business_name });
  return eta.render('roadmap', { ...view, ...frame(messages, true, view.brand), title });
}

/** An error page: its heading and words, and when to come back (Retry-After, in seconds) if known. */
export function renderMessage(heading: string, message: string, retryAfter?: string, locale = DEFAULT_LOCALE): string {
  const messages = messagesFor(locale);
  const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return eta.render('message', {
    ...frame(messages, false),
    title: heading,
    heading,
    message,
    retry: seconds === undefined ? undefined : messages.t('page.error.retry_after', { seconds }),
  });
}

/** What a follow link's page quotes: the suggestion's words, or that it still awaits review. */
export interface FollowPageSubject {
  business: string;
  /** The suggestion as the page shows it; null while it awaits review (or is no longer shown). */
  suggestion: string | null;
}

/** A follow link's page: what it is about, and its buttons (each a POST to `url`: no script needed). */
export function renderFollowPage(
  page: { heading: string; message: string; subject?: FollowPageSubject },
  actions: { url: string; label: string }[] = [],
  locale = DEFAULT_LOCALE,
): string {
  const messages = messagesFor(locale);
  return eta.render('follow', { ...frame(messages, false), ...page, title: page.heading, actions });
}

export function renderLanding(locale = DEFAULT_LOCALE): string {
  const messages = messagesFor(locale);
  return eta.render('landing', { ...frame(messages, false), title: messages.t('page.landing.title') });
}

/** An entry as the changelog pages show it: `body_html` is the server's rendering, safe as it is. */
interface ShownEntry {
  id: string;
  title: string;
  body_html: string;
  published_at: string;
  published_on: string;
  url: string;
}

/** The page's changelog: its published entries, newest first. */
export function renderChangelog(
  view: {
    code: string;
    business_name: string;
    entries: ShownEntry[];
    next_offset: number | null;
  },
  locale = DEFAULT_LOCALE,
): string {
  const messages = messagesFor(locale);
  const title = messages.t('changelog.page.title', { business: view.business_name });
  return eta.render('changelog', { ...view, ...frame(messages, false), title });
}

/** One published entry of the changelog. */
export function renderChangelogEntry(
  view: { code: string; business_name: string; entry: ShownEntry },
  locale = DEFAULT_LOCALE,
): string {
  const title = `${view.entry.title} · ${view.business_name}`;
  return eta.render('changelog-entry', { ...view, ...frame(messagesFor(locale), false), title });
}
