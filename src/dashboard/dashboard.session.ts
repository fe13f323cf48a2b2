import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import { forbidden } from '../errors/http-error.js';
import { fromOwnOrigin } from '../http/origin.js';
import type { Services } from '../http/route.js';
import { SESSION_LIFETIME_MS } from '../sessions/session.service.js';

/**
 * The dashboard's cookies and form tokens. Both cookies are HttpOnly (no script ever reads them),
 * SameSite=Lax, Secure over HTTPS, and only sent to `/app`.
 * - `fb_session`: the session token itself (the Bearer token of the JSON API); revoked on sign-out.
 * - `fb_form`: a random value for the forms shown before a session exists (sign-in, password reset,
 *   accepting an invite), so that even those cannot be posted from another site (login CSRF).
 */
export const SESSION_COOKIE = 'fb_session';
export const FORM_COOKIE = 'fb_form';
export const BASE_PATH = '/app';

const FORM_COOKIE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const cookieOptions = (req: Request): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure: req.secure,
  path: BASE_PATH,
});

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: SESSION_LIFETIME_MS });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** The browser's form cookie, made (for the browser's session only) when it has none. */
export function ensureFormCookie(req: Request, res: Response): string {
  const existing = readCookie(req, FORM_COOKIE);
  if (existing && FORM_COOKIE_PATTERN.test(existing)) return existing;
  const value = randomBytes(32).toString('base64url');
  res.cookie(FORM_COOKIE, value, cookieOptions(req));
  return value;
}

/**
 * A form's token: derived from a secret only the browser's cookie holds (the session token, or the
 * form cookie), which no other site can read or set. Nothing is stored: the server derives it again.
 */
export const formToken = (secret: string): string =>
  createHmac('sha256', secret).update('dashboard form').digest('base64url');

const refusedPost = () =>
  forbidden('This form can only be sent from the dashboard itself: reload the page and try again', 'CSRF_REFUSED');

/**
 * A post must come from this service's own pages (Origin, or Referer when a browser sends no Origin;
 * a request with neither is refused) and carry the token of the page it came from.
 */
export function assertFormPost(
  req: Request,
  site: Pick<Services, 'publicBaseUrl' | 'publicBaseUrlConfigured'>,
  secret: string | undefined,
): void {
  if (!fromOwnOrigin(req, site.publicBaseUrl, site.publicBaseUrlConfigured)) throw refusedPost();
  const sent = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (!secret || typeof sent !== 'string') throw refusedPost();
  const expected = Buffer.from(formToken(secret));
  const given = Buffer.from(sent);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refusedPost();
}

/**
 * Where to go after signing in: a path of the dashboard, never another site (`//evil.example`,
 * `/\evil.example` and absolute URLs are refused), else the dashboard's start.
 */
export function safeNext(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > 2000) return BASE_PATH;
  if (!candidate.startsWith(BASE_PATH) || /[\\\s]/.test(candidate)) return BASE_PATH;
  const parsed = new URL(candidate, 'http://dashboard.invalid');
  if (parsed.origin !== 'http://dashboard.invalid') return BASE_PATH;
  if (parsed.pathname !== BASE_PATH && !parsed.pathname.startsWith(`${BASE_PATH}/`)) return BASE_PATH;
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * Sends a browser without a live session to sign in, and back here afterwards: a page to itself, a
 * form post to the page it was sent from (its Referer, when that is a dashboard page).
 */
export function redirectToSignIn(req: Request, res: Response): void {
  let back = req.method === 'GET' || req.method === 'HEAD' ? req.originalUrl : BASE_PATH;
  const referer = req.get('referer');
  if (back === BASE_PATH && referer && URL.canParse(referer)) {
    const from = new URL(referer);
    if (from.host === req.get('host')) back = `${from.pathname}${from.search}`;
  }
  const next = safeNext(back);
  res.redirect(303, `${BASE_PATH}/sign-in${next === BASE_PATH ? '' : `?next=${encodeURIComponent(next)}`}`);
}
