import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { readCookie } from './dashboard.session.js';

/**
 * A one-shot secret (a new API key, a webhook's signing secret) carried from the post that made it to
 * the page the post redirects to, so reloading that page never makes a second one (redirect after
 * post). The cookie holds it encrypted (AES-256-GCM) under a key derived (HKDF-SHA256) from the session
 * token, which the server never stores: the cookie alone, in a log or a backup, reveals nothing, and
 * no other session can read it. It is HttpOnly, SameSite=Strict, sent only to the one page that shows
 * it (`Path`), lives a minute at most, and is cleared by the GET that shows it.
 */
export const FLASH_COOKIE = 'fb_flash';
const FLASH_SECONDS = 60;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key: the session's token, for this page (the path is the HKDF info, and the cipher's AAD). */
const keyOf = (sessionToken: string, path: string) =>
  Buffer.from(hkdfSync('sha256', sessionToken, 'dashboard flash', path, 32));

const options = (req: Request, path: string) =>
  ({ httpOnly: true, sameSite: 'strict', secure: req.secure, path }) as const;

/** Sets the secret for the page at `path` (its pathname, as the browser will ask for it). */
export function setFlash(req: Request, res: Response, sessionToken: string, path: string, value: unknown): void {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionToken, path), iv);
  cipher.setAAD(Buffer.from(path));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const cookie = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  res.cookie(FLASH_COOKIE, cookie, { ...options(req, path), maxAge: FLASH_SECONDS * 1000 });
}

/**
 * The secret for this page, once: read and cleared. Nothing (undefined) when there is none, or when it
 * was sealed for another session or page, or tampered with.
 */
export function takeFlash<T>(req: Request, res: Response, sessionToken: string, path: string): T | undefined {
  const cookie = readCookie(req, FLASH_COOKIE);
  if (!cookie) return undefined;
  res.clearCookie(FLASH_COOKIE, options(req, path));
  const bytes = Buffer.from(cookie, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionToken, path), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(path));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const opened = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return JSON.parse(opened.toString('utf8')) as T;
  } catch {
    // Sealed under another session or page, or altered: shown as if there were none.
    return undefined;
  }
}
