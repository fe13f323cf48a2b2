import express, { type RequestHandler } from 'express';
import { HttpError, invalidInput } from '../errors/http-error.js';
import { decodeUtf8 } from '../shared/unicode.js';

export const BODY_LIMIT = '64kb';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return req.headers['transfer-encoding'] !== undefined || length > 0;
}

/**
 * Reads the bytes (decompressing gzip, deflate and br, up to the limit); what goes wrong there is an
 * error with an HTTP status below 500 that the error handler turns into a 400, 413 or 415.
 */
const readBytes = express.raw({ type: () => true, limit: BODY_LIMIT });

/** As body-parser marks a client that went away mid-body: the error handler logs it as such, at info. */
const clientGone = () =>
  Object.assign(new Error('the client closed the connection before its body was read'), { type: 'request.aborted' });

const malformedJson = () => new HttpError(400, 'Malformed JSON in request body', 'MALFORMED_JSON');
const JSON_WHITESPACE = /^[ \t\n\r]*/;

/**
 * How deep a JSON body may nest objects and arrays. No request the API takes goes past 4 levels; the
 * bound is what lets every walk over a body (the Unicode check, zod, the idempotency fingerprint) be
 * safe from a small body nested thousands deep, which would otherwise overflow the stack of any
 * recursive walk and hold the event loop for every business.
 */
export const MAX_JSON_DEPTH = 32;

const OPENING = 0x7b; // {
const OPENING_ARRAY = 0x5b; // [
const CLOSING = 0x7d; // }
const CLOSING_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text nests deeper than the limit: one pass over its characters, outside strings,
 * before anything parses or walks it. Malformed text is left for JSON.parse to refuse.
 */
export function nestsTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPENING || code === OPENING_ARRAY) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSING || code === CLOSING_ARRAY) depth -= 1;
  }
  return false;
}

/**
 * JSON as RFC 8259 exchanges it: UTF-8 (a leading byte-order mark is ignored), an object or an array
 * at the top. Bytes that are not UTF-8 are kept as lone surrogates, so validation names the field
 * they are in (src/shared/unicode.ts) rather than the text silently changing to U+FFFD.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return {};
  const text = decodeUtf8(bytes).replace(/^\uFEFF/, '');
  const first = text.charAt(JSON_WHITESPACE.exec(text)![0].length);
  if (first !== '{' && first !== '[') throw malformedJson();
  if (nestsTooDeep(text)) {
    throw new HttpError(400, `JSON in request body nests deeper than ${MAX_JSON_DEPTH} levels`, 'BODY_TOO_DEEP');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformedJson();
  }
}

/**
 * A body that is not JSON is a 415, and so is JSON in another charset than UTF-8; malformed JSON is a
 * 400 and an oversized body a 413. A request without a body (every GET) skips the reader: it would
 * find nothing to read, at a cost comparable to the rest of a cached list request.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) return next();
  if (!req.is('application/json')) {
    throw new HttpError(415, 'Request body must be JSON (Content-Type: application/json)', 'UNSUPPORTED_MEDIA_TYPE');
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, 'Request body must be UTF-8 (charset=utf-8)', 'UNSUPPORTED_MEDIA_TYPE');
  }
  readBytes(req, res, (err?: unknown) => {
    if (err) return next(err);
    // body-parser reads nothing from a request that is already over: its client closed the connection
    // right after sending (or during) the body. Nobody is left to answer, and nothing went wrong here.
    if (!Buffer.isBuffer(req.body)) return next(clientGone());
    try {
      req.body = parseJsonBody(req.body);
    } catch (parseError) {
      return next(parseError);
    }
    next();
  });
};

/**
 * An upload's bytes (a logo): sent as one of `types` (else a 415, before anything is read), at most
 * `maxBytes` (else a 413, from Content-Length at once or while reading). What the bytes really are is
 * the feature's to check: a Content-Type is the sender's claim.
 */
export function uploadBody(spec: { types: readonly string[]; maxBytes: number }): RequestHandler {
  const read = express.raw({ type: () => true, limit: spec.maxBytes });
  const tooLarge = () =>
    new HttpError(413, `Request body exceeds ${Math.round(spec.maxBytes / 1024)} KiB`, 'PAYLOAD_TOO_LARGE');
  return (req, res, next) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!spec.types.includes(type)) {
      throw new HttpError(415, `Request body must be one of ${spec.types.join(', ')}`, 'UNSUPPORTED_MEDIA_TYPE');
    }
    if (Number(req.headers['content-length'] ?? 0) > spec.maxBytes) throw tooLarge();
    read(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') return next(tooLarge());
      if (err) return next(err);
      if (!Buffer.isBuffer(req.body)) return next(clientGone());
      next();
    });
  };
}

/** An upload route's bytes as handed to it: a request's body, or an invocation's (a dashboard form's file). */
export function uploadOf(body: unknown): Buffer {
  if (Buffer.isBuffer(body) && body.length > 0) return body;
  throw invalidInput([{ field: '', code: 'file_required', message: 'send the file as the request body' }]);
}
