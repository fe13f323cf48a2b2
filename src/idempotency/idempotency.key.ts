import { createHash } from 'node:crypto';
import { HttpError } from '../errors/http-error.js';

/** Printable ASCII, space included; a structured-field string escapes only `"` and `\`. */
const BARE_KEY = /^[\x20-\x7e]{1,255}$/;
const QUOTED_KEY = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\]){1,255})"$/;

export const invalidIdempotencyKey = () =>
  new HttpError(
    400,
    'Idempotency-Key must be 1 to 255 printable ASCII characters, bare or as a quoted string ("...")',
    'INVALID_IDEMPOTENCY_KEY',
  );

/**
 * The key of an `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header): a bare token, or
 * the draft's structured-field string form, `"..."`, unescaped. Undefined without the header.
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.startsWith('"')) {
    const quoted = QUOTED_KEY.exec(header);
    const key = quoted?.[1]?.replace(/\\(["\\])/g, '$1');
    if (key === undefined || key.length > 255) throw invalidIdempotencyKey();
    return key;
  }
  if (!BARE_KEY.test(header)) throw invalidIdempotencyKey();
  return header;
}

/** JSON with every object's keys sorted: the same document always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest();

export interface KeyedRequest {
  /** Who sent it: `key:<api key id>`, `user:<user id>`, or `address:<client address>`. */
  credential: string;
  method: string;
  /** The path without its query: keys are scoped to it. */
  path: string;
  /** The path with its query, for the fingerprint. */
  url: string;
  body: unknown;
  key: string;
}

/** Where a key lives: the credential, method, path and key, digested (the key itself is never stored). */
export const scopeOf = (request: KeyedRequest): Buffer =>
  sha256(request.credential, request.method, request.path, request.key);

/** What a key must be sent with again: the method, the URL and the canonical JSON body. */
export const fingerprintOf = (request: KeyedRequest): Buffer =>
  sha256(request.method, request.url, request.body === undefined ? '' : canonicalJson(request.body));
