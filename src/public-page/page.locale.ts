import type { Request, Response } from 'express';
import { CUSTOMER_LANGUAGES, DEFAULT_LOCALE } from '../shared/messages.js';
import { boundedMemo } from '../shared/memo.js';

/** The cookie that keeps a visitor's `?lang=` choice (a catalogue's name, nothing else). */
export const LANGUAGE_COOKIE = 'fb_lang';
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The languages the page speaks, by catalogue name; a business's `default_language` is one of them. */
export const PAGE_LANGUAGES: readonly string[] = CUSTOMER_LANGUAGES;

/** Right-to-left scripts among the catalogues: the page sets `dir="rtl"` for them. */
const RTL = new Set(['ar', 'fa', 'he', 'ur']);
export const directionOf = (locale: string): 'rtl' | 'ltr' => (RTL.has(locale) ? 'rtl' : 'ltr');

/** A catalogue's name exactly as given (`de`), else null: only these reach a cookie or a cache key. */
const known = (value: unknown): string | null =>
  typeof value === 'string' && PAGE_LANGUAGES.includes(value.toLowerCase()) ? value.toLowerCase() : null;

function cookieLanguage(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) return known(value);
  }
  return null;
}

/**
 * The `?lang=` of a request, when it has a query: Express 5 parses `req.query` anew at every read,
 * and most visits (a QR code's link) have none.
 */
const queryLanguage = (req: Request): string | null => (req.url.includes('?') ? known(req.query.lang) : null);

/**
 * Answers by header: a browser sends the same Accept-Language with every request, and its visitors'
 * browsers send a handful of different ones, so a page parses each once (at most 512 are kept, each
 * at most this long).
 */
const HEADER_KEPT_CHARS = 256;
const bestByHeader = boundedMemo(512, (header) => parseAcceptLanguage(header));

/**
 * The best catalogue for an Accept-Language header (RFC 9110 §12.5.4): ranges by their q-value,
 * highest first (ties keep the header's order); a range matches a catalogue by its primary subtag
 * (`de-AT` → `de`); `*` and q=0 choose nothing. Null when no range names a catalogue.
 */
export function bestLanguage(header: string | undefined): string | null {
  if (!header) return null;
  return header.length > HEADER_KEPT_CHARS ? parseAcceptLanguage(header) : bestByHeader(header);
}

function parseAcceptLanguage(header: string): string | null {
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0 && range.tag && range.tag !== '*')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const match = known(tag.split(/[-_]/)[0]);
    if (match) return match;
  }
  return null;
}

/**
 * The language a visitor reads the public pages in: `?lang=` (a catalogue's name), else the cookie a
 * `?lang=` left, else the best of Accept-Language, else the business's `default_language` (or English
 * where no business is known: the landing page, an error before the code is read).
 */
export function pageLocale(req: Request, fallback: string = DEFAULT_LOCALE): string {
  return (
    queryLanguage(req) ??
    cookieLanguage(req) ??
    bestLanguage(req.headers['accept-language']) ??
    known(fallback) ??
    DEFAULT_LOCALE
  );
}

/**
 * A `?lang=` choice is kept in a cookie (a year, SameSite=Lax, readable by nothing but this service's
 * pages), and every page says its words depend on the cookie and Accept-Language: a shared cache must
 * not serve one visitor's language to another.
 */
export function rememberLanguage(req: Request, res: Response): void {
  // Set as it is when nothing else varies the page yet (the common case), without vary's parse.
  if (res.hasHeader('Vary')) res.vary('Accept-Language, Cookie');
  else res.setHeader('Vary', 'Accept-Language, Cookie');
  const chosen = queryLanguage(req);
  if (chosen && chosen !== cookieLanguage(req))
    res.cookie(LANGUAGE_COOKIE, chosen, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
      maxAge: YEAR_MS,
    });
}
