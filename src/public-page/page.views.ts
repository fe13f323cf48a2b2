import { hashedAsset, templates } from '../http/pages.js';
import { t } from '../shared/messages.js';
import type { RoadmapStatus } from '../businesses/business.schemas.js';
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
  /** Whether the business shows its roadmap: the page links to it. */
  roadmap: boolean;
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
  return eta.render('page', { ...view, form, title, sorts: SORTS, assets: assetPaths, script: true, t });
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
}

/** The roadmap page: its words from the catalogue (`roadmap.*`); its script only enhances the votes. */
export function renderRoadmap(view: RoadmapView): string {
  const title = t('roadmap.page.title', { business: view.business_name });
  return eta.render('roadmap', { ...view, title, assets: assetPaths, script: true, t });
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
