import type { Response } from 'express';
import { hashedAsset, templates } from '../http/pages.js';
import { t } from '../shared/messages.js';
import type { Role } from '../shared/schemas.js';
import { BASE_PATH } from './dashboard.session.js';

const eta = templates('dashboard');

export const DASHBOARD_ASSETS = [
  hashedAsset('dashboard.css', 'text/css'),
  hashedAsset('dashboard.js', 'text/javascript'),
];
const assets = { css: `${BASE_PATH}${DASHBOARD_ASSETS[0]!.path}`, js: `${BASE_PATH}${DASHBOARD_ASSETS[1]!.path}` };

/** A field's message, by the form field's name; shown beside it, and the field marked invalid. */
export type FieldErrors = Record<string, string>;

/** What the layout shows around every page. */
export interface Frame {
  title: string;
  /** The token every form of the page carries. */
  csrf?: string;
  /** The sign-out form's token (the session's), where the page's own forms carry another. */
  signOutCsrf?: string;
  /** The signed-in user: the header shows them, and a sign-out button. */
  user?: { name: string | null; email: string };
  /** The business the page is about, and the user's role in it. */
  business?: { id: string; name: string; role: Role };
  /** How many businesses the user belongs to: a "Switch business" link from two. */
  businessCount?: number;
  /** Which entry of the business's navigation is this page. */
  nav?: 'home' | 'issues' | 'qr-codes' | 'analytics' | 'team' | 'settings' | 'integrations';
  /** What the user may do here, by authorize()'s actions: the page offers only that. */
  can?: Partial<Record<string, boolean>>;
}

/** A page of web/views/dashboard, rendered. */
export function renderView(view: string, data: Frame & Record<string, unknown>): string {
  return eta.render(view, { errors: {}, values: {}, ...data, assets, base: BASE_PATH, t });
}

/** Renders a page of web/views/dashboard and sends it; pages with data are never cached (app.ts). */
export function sendView(res: Response, status: number, view: string, data: Frame & Record<string, unknown>): void {
  res.status(status).type('html').send(renderView(view, data));
}

/** A moment as people read it, to the minute, in UTC (a key's last use is only known to the minute). */
export function when(date: Date | null): string | null {
  if (!date) return null;
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
