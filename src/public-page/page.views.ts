import { hashedAsset, templates } from '../http/pages.js';
import { t } from '../shared/messages.js';
import type { PublicSort } from './page.repository.js';
import type { toPublicSuggestion } from './page.presenter.js';

const eta = templates();

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
  form: { token: string; error?: string; content?: string; customer_name?: string; customer_email?: string };
}

const SORTS = [
  { value: 'trending', label: 'Trending' },
  { value: 'top', label: 'Top' },
  { value: 'new', label: 'New' },
];

export function renderPage(view: PageView): string {
  const title = `Feedback for ${view.business_name}`;
  const form = { content: '', customer_name: '', customer_email: '', ...view.form };
  return eta.render('page', {
    ...view,
    form,
    title,
    sorts: SORTS,
    changelogLink: t('changelog.page.link'),
    assets: assetPaths,
    script: true,
  });
}

export function renderMessage(heading: string, message: string, retryAfter?: string): string {
  return eta.render('message', { title: heading, heading, message, retryAfter, assets: assetPaths, script: false });
}

/** A follow link's page: what it is about, and its buttons (each a POST to `url`: no script needed). */
export function renderFollowPage(
  heading: string,
  message: string,
  actions: { url: string; label: string }[] = [],
): string {
  return eta.render('follow', { title: heading, heading, message, actions, assets: assetPaths, script: false });
}

export function renderLanding(): string {
  return eta.render('landing', { title: 'Feedback API', assets: assetPaths, script: false });
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
export function renderChangelog(view: {
  code: string;
  business_name: string;
  entries: ShownEntry[];
  next_offset: number | null;
}): string {
  const title = t('changelog.page.title', { business: view.business_name });
  return eta.render('changelog', { ...view, title, t, assets: assetPaths, script: false });
}

/** One published entry of the changelog. */
export function renderChangelogEntry(view: { code: string; business_name: string; entry: ShownEntry }): string {
  const title = `${view.entry.title} · ${view.business_name}`;
  return eta.render('changelog-entry', { ...view, title, t, assets: assetPaths, script: false });
}
