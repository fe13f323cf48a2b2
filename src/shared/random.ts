import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 characters from the CSPRNG (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A URL-safe token of 256 random bits behind a recognisable prefix. */
export const randomToken = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

/** Whether `candidate` has the shape randomToken(prefix) makes: checked before any lookup. */
export const isRandomToken = (prefix: string, candidate: string): boolean =>
  candidate.startsWith(prefix) && TOKEN_BODY.test(candidate.slice(prefix.length));
