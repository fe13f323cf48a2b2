import type { Response } from 'express';
import { hashedAsset, templates } from '../http/pages.js';
import { DEFAULT_LOCALE, messagesFor } from '../shared/messages.js';
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
  nav?: 'home' | 'issues' | 'changelog' | 'qr-codes' | 'analytics' | 'team' | 'settings' | 'integrations';
  /** What the user may do here, by authorize()'s actions: the page offers only that. */
  can?: Partial<Record<string, boolean>>;
  /** The language the page speaks (a catalogue's name); English until users choose theirs. */
  locale?: string;
}

/**
 * A page of web/views/dashboard, rendered. Every template (partials and the layout included) reads
 * its words as `it.t('app.nav.home', values)`, numbers as `it.number(n)` and dates as `it.date(d)`,
 * in the page's language (`it.locale`, also its `<html lang>`).
 */
export function renderView(view: string, data: Frame & Record<string, unknown>): string {
  const { t, number, date, locale } = messagesFor(data.locale ?? DEFAULT_LOCALE);
  return eta.render(view, { errors: {}, values: {}, ...data, t, number, date, locale, assets, base: BASE_PATH });
}

/** Renders a page of web/views/dashboard and sends it; pages with data are never cached (app.ts). */
export function sendView(res: Response, status: number, view: string, data: Frame & Record<string, unknown>): void {
  res.status(status).type('html').send(renderView(view, data));
}

/**
 * A moment as people read it in the page's language, to the minute, in UTC (a key's last use is only
 * known to the minute): `Nov 27, 2026, 23:39 UTC` in English.
 */
export function when(date: Date | null, locale = DEFAULT_LOCALE): string | null {
  if (!date) return null;
  return messagesFor(locale).date(date, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
}
