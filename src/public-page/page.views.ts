import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { PublicSort } from './page.repository.js';
import type { toPublicSuggestion } from './page.presenter.js';

/** Same path from src/public-page (tsx, vitest) and dist/public-page (compiled), as for migrations/. */
const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

/**
 * Eta escapes every `<%= %>` value (autoEscape); `<%~ %>` is used only to place the output of other
 * templates (the layout's body, an included item), never a value.
 */
const eta = new Eta({ views: `${WEB_DIR}views`, autoEscape: true, cache: true, autoTrim: false });

interface Asset {
  path: string;
  body: Buffer;
  type: string;
}

/** The stylesheet and the script, named by a hash of their content, so they can be cached for a year. */
function asset(file: string, type: string): Asset {
  const body = readFileSync(`${WEB_DIR}assets/${file}`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [name, extension] = file.split('.');
  return { path: `/assets/${name}.${hash}.${extension}`, body, type };
}

export const ASSETS = [asset('page.css', 'text/css'), asset('page.js', 'text/javascript')];
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
  return eta.render('page', { ...view, form, title, sorts: SORTS, assets: assetPaths, script: true });
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
