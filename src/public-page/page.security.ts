import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import { badRequest, forbidden } from '../errors/http-error.js';
import { fromOwnOrigin } from '../http/origin.js';
import type { ReplyCookie } from '../http/reply.js';
import type { Services } from '../http/route.js';

/**
 * The page has no credential, so what a browser sends on its own (cookies) must never be enough to
 * write: a write must come from this service's own pages (Origin, or Referer when a browser sends no
 * Origin). A request with neither is refused too: every browser sends one of them on a POST.
 */
export function assertSameOrigin(
  req: Request,
  site: Pick<Services, 'publicBaseUrl' | 'publicBaseUrlConfigured'>,
): void {
  if (!fromOwnOrigin(req, site.publicBaseUrl, site.publicBaseUrlConfigured)) {
    throw forbidden('Cross-site posts to the feedback page are refused: post from the page itself');
  }
}

/**
 * What the page's form token protects: a minimum time between showing the form and posting it, and
 * one post per form (page.service.ts records the tokens that sent feedback).
 */
export interface FormClock {
  now: () => number;
  /** Signs form tokens; random per process unless PAGE_FORM_SECRET is set (needed with several instances). */
  formKey: Buffer;
  minFillMs: number;
}

/** Tokens older than this are refused: the page is reloaded for a new one. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

const sign = (key: Buffer, code: string, issuedAt: number, nonce: string) =>
  createHmac('sha256', key).update(`${code}:${issuedAt}:${nonce}`).digest('base64url');

const NONCE_BYTES = 12;
const NONCES_PER_DRAW = 256;
let nonces = Buffer.alloc(0);
let nonceAt = 0;

/**
 * 12 bytes from the system's CSPRNG, drawn 256 nonces at a time rather than one call a page: each
 * nonce is used once and never again (the draw is consumed in order, then replaced).
 */
function nextNonce(): string {
  if (nonceAt + NONCE_BYTES > nonces.length) {
    nonces = randomBytes(NONCE_BYTES * NONCES_PER_DRAW);
    nonceAt = 0;
  }
  const nonce = nonces.toString('base64url', nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

/**
 * `<issued at, ms>.<nonce>.<HMAC of code, time and nonce>`: put in the form when it is shown. The
 * random nonce makes every form's token its own, even two shown in the same millisecond, since each
 * sends feedback once.
 */
export function issueFormToken(clock: FormClock, code: string): string {
  const issuedAt = clock.now();
  const nonce = nextNonce();
  return `${issuedAt}.${nonce}.${sign(clock.formKey, code, issuedAt, nonce)}`;
}

const notAccepted = () =>
  badRequest('Your feedback could not be accepted: reload the page, then take a moment before sending it');

/** A form token that passed: what names it (a digest: the token is never stored) and until when it counts. */
export interface AcceptedForm {
  digest: Buffer;
  expiresAt: Date;
}

/**
 * Naive bots fill every field (the honeypot `website`, hidden from people) or post at once, or
 * without the page's token; each of those is refused without a captcha.
 */
export function assertHumanPost(
  clock: FormClock,
  code: string,
  fields: { form_token?: string; website?: string },
): AcceptedForm {
  if (fields.website) throw notAccepted();
  const token = fields.form_token ?? '';
  const [issued, nonce, signature, ...rest] = token.split('.');
  const issuedAt = Number(issued);
  if (!Number.isSafeInteger(issuedAt) || !nonce || !signature || rest.length > 0) throw notAccepted();
  const expected = Buffer.from(sign(clock.formKey, code, issuedAt, nonce));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notAccepted();
  const age = clock.now() - issuedAt;
  if (age < clock.minFillMs || age > TOKEN_LIFETIME_MS) throw notAccepted();
  return {
    digest: createHash('sha256').update(token).digest(),
    expiresAt: new Date(issuedAt + TOKEN_LIFETIME_MS),
  };
}

const postedSignature = (key: Buffer, code: string, id: string) =>
  createHmac('sha256', key).update(`posted:${code}:${id}`).digest('base64url');

/**
 * Proof that this browser posted suggestion `id` from `code`'s page, given to it in the answer to the
 * post: with it, it may follow its own feedback while that awaits review (not yet on the page, so
 * nobody else can name it). Signed with the form key, as form tokens are.
 */
export function postedToken(clock: FormClock, code: string, id: string): string {
  return postedSignature(clock.formKey, code, id);
}

export function isPostedToken(clock: FormClock, code: string, id: string, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(postedSignature(clock.formKey, code, id));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const VOTER_COOKIE = 'fb_voter';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The browser's anonymous voter token, when it has a well-formed one. */
export function readVoterToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === VOTER_COOKIE && value && TOKEN_PATTERN.test(value)) return value;
  }
  return undefined;
}

/**
 * The browser's voter token, and the cookie to set (HttpOnly, SameSite=Lax, Secure over HTTPS, a
 * year) when it had none and one was made.
 */
export function voterToken(req: Request): { token: string; cookies: ReplyCookie[] } {
  const existing = readVoterToken(req);
  if (existing) return { token: existing, cookies: [] };
  const token = randomBytes(32).toString('base64url');
  const options: CookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    maxAge: 365 * 24 * 60 * 60 * 1000,
  };
  return { token, cookies: [{ name: VOTER_COOKIE, value: token, options }] };
}

/** The voter token, its cookie set on `res` when it was made: for the HTML pages. */
export function ensureVoterToken(req: Request, res: Response): string {
  const { token, cookies } = voterToken(req);
  for (const { name, value, options } of cookies) res.cookie(name, value, options);
  return token;
}
