import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  CredentialError,
  HttpError,
  RateLimitError,
  RETRY_AFTER_SECONDS,
  bodyOf,
  invalidInput,
  rateLimitBody,
  serviceUnavailable,
} from '../errors/http-error.js';
import { countCredentialFailure } from './rate-limit.js';

/** Error codes of a connection that broke or a server going away: the client may retry. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '25006', // read_only_sql_transaction: a write reached a host that is (now) a standby or read-only
  '08000',
  '08003',
  '08006',
  '53300', // too_many_connections
]);

/** Whether an error says the database cannot be reached now (a 503 with Retry-After, not a 500). */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message,
  );
}

/** What body-parser, raw-body, zlib and the router attach to the errors they throw. */
interface ClientErrorFields {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  code?: unknown;
  expose?: unknown;
  message?: unknown;
}

/** The HTTP status an error carries, when it says the client is at fault (400 to 499). */
export function clientStatus(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { status, statusCode } = err as ClientErrorFields;
  const carried = typeof status === 'number' ? status : statusCode;
  return typeof carried === 'number' && Number.isInteger(carried) && carried >= 400 && carried < 500
    ? carried
    : undefined;
}

/** The client went away while its body was being read: nothing to answer, and nothing went wrong here. */
function isClientAbort(err: unknown): boolean {
  const { type, code } = (err ?? {}) as ClientErrorFields;
  return type === 'request.aborted' || code === 'ECONNABORTED';
}

/**
 * Every error that carries an HTTP status below 500 is the client's mistake and becomes that status
 * in the error shape: body-parser's (malformed JSON, too large, unsupported encoding or charset, a
 * body that does not decompress or is shorter than its Content-Length), the router's URIError for a
 * path that does not percent-decode, and any other library's. Known causes get a clear message and
 * a code; the rest keep the message the library marked as safe to show (`expose`).
 */
function fromClientError(err: unknown): HttpError | undefined {
  const status = clientStatus(err);
  if (status === undefined) return undefined;
  const { type, code, expose, message } = err as ClientErrorFields;
  if (err instanceof URIError) {
    return new HttpError(400, 'The path is not valid percent-encoded UTF-8', 'MALFORMED_PATH');
  }
  switch (type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'Malformed JSON in request body', 'MALFORMED_JSON');
    case 'entity.too.large':
      return new HttpError(413, 'Request body exceeds 64 KiB', 'PAYLOAD_TOO_LARGE');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'Unsupported body encoding', 'UNSUPPORTED_MEDIA_TYPE');
    case 'request.size.invalid':
      return new HttpError(400, 'Request body length does not match Content-Length', 'MALFORMED_BODY');
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new HttpError(400, 'Request body does not decode as its Content-Encoding says', 'MALFORMED_BODY');
  }
  const safe = expose === true && typeof message === 'string' && message.length > 0;
  return new HttpError(
    status,
    safe ? message : (STATUS_CODES[status] ?? 'Bad request'),
    status === 400 ? 'BAD_REQUEST' : undefined,
  );
}

/** PostgreSQL refusing a character it cannot store: the input's fault, so a 400, never a 500. */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

/**
 * A foreign key that no longer holds: something the request named (a location, an assignee) was
 * deleted by a concurrent request between the check and the write. Retrying gives a clear answer.
 */
const PG_FOREIGN_KEY_VIOLATION = '23503';

function fromDatabase(err: unknown): HttpError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === PG_FOREIGN_KEY_VIOLATION) {
    return new HttpError(409, 'Something this request refers to was removed meanwhile; retry', 'CONFLICT');
  }
  if (typeof code === 'string' && UNSTORABLE_TEXT_CODES.has(code)) {
    return invalidInput([
      { field: '', code: 'unstorable', message: 'the request contains characters that cannot be stored' },
    ]);
  }
  return undefined;
}

/** The 4xx an error stands for, when it is the client's: what an Idempotency-Key stores of a refusal. */
export function clientErrorOf(err: unknown): HttpError | undefined {
  const httpError = err instanceof HttpError ? err : (fromClientError(err) ?? fromDatabase(err));
  return httpError && httpError.statusCode < 500 ? httpError : undefined;
}

/** The one place every error becomes the spec's `{statusCode, message, error}` body. Never a stack. */
export const errorHandler: ErrorRequestHandler = async (err: unknown, req, res, _next) => {
  if (isClientAbort(err)) {
    // Logged as what it is; the socket is gone, so there is nobody to answer.
    req.log.info({ reason: (err as Error).message }, 'client aborted the request');
    res.destroy();
    return;
  }
  let httpError = err instanceof HttpError ? err : (fromClientError(err) ?? fromDatabase(err));
  if (!httpError && isUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable');
    httpError = serviceUnavailable();
  }
  if (!httpError) {
    req.log.error({ err }, 'unhandled error');
    httpError = new HttpError(500, 'Internal server error', 'INTERNAL_ERROR');
  }
  if (res.headersSent) {
    // A streamed response cannot change its status any more: cut it so the client sees it failed.
    res.destroy();
    return;
  }
  // Every refused credential, wherever it was found, costs the address one failure: past its budget,
  // the refusal is a 429.
  if (httpError instanceof CredentialError) httpError = (await countCredentialFailure(req)) ?? httpError;
  res.set(httpError.headers);
  if (httpError instanceof RateLimitError) {
    res.status(429).json(rateLimitBody(httpError.message, httpError.retryAfter));
    return;
  }
  // Whoever made the 503, the client is told when to retry.
  if (httpError.statusCode === 503 && !res.get('Retry-After')) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
  res.status(httpError.statusCode).json(bodyOf(httpError, req.id));
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `Route ${req.method} ${req.path} not found`, 'ROUTE_NOT_FOUND'));
};
