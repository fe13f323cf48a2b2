import { STATUS_CODES } from 'node:http';

/** An error whose message is safe to show to the client, with the HTTP status it maps to. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * A credential that was refused: an API key, a session token, a password, an invite token. Besides its
 * answer, it counts against the client address's failure budget (the error handler sees to it), so
 * throwing one is all a service needs to do to make guessing it expensive.
 */
export class CredentialError extends HttpError {}

/**
 * A request refused by a limit: a 429 answered with the spec's own body (section 7, `rateLimitBody`),
 * not the general error body, and a Retry-After header equal to `retryAfter` (whole seconds, at least 1).
 */
export class RateLimitError extends HttpError {
  /** `code` tells refusals apart inside the service (a page words them differently); the body's is the spec's. */
  constructor(
    readonly retryAfter: number,
    message: string,
    code = 'RATE_LIMIT_EXCEEDED',
  ) {
    super(429, message, code, { 'Retry-After': String(retryAfter) });
  }
}

/** The one code a 429's body carries, whichever limit refused (the body's schema says the same). */
export const RATE_LIMIT_CODE = 'RATE_LIMIT_EXCEEDED';

/** The spec's 429 body: `{error: {code, message, retryAfter}}`. */
export const rateLimitBody = (message: string, retryAfter: number) => ({
  error: { code: RATE_LIMIT_CODE, message, retryAfter },
});

/** Seconds a client is asked to wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const notFound = (what: string) => new HttpError(404, `${what} not found`, 'NOT_FOUND');
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, message, code);
export const conflict = (message: string) => new HttpError(409, message, 'CONFLICT');
/** A well-formed body naming what the business does not have (an unknown tag name). */
export const unprocessable = (message: string, code: string) => new HttpError(422, message, code);
export const unauthorized = (message = 'Missing or invalid credential') =>
  new CredentialError(401, message, 'UNAUTHORIZED', { 'WWW-Authenticate': 'Bearer' });
/** The service cannot answer now (starting, or its database unreachable): always with Retry-After. */
export const serviceUnavailable = (message = 'Service temporarily unavailable, retry shortly') =>
  new HttpError(503, message, 'SERVICE_UNAVAILABLE', { 'Retry-After': String(RETRY_AFTER_SECONDS) });

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code?: string;
  requestId?: string;
}

export function errorBody(statusCode: number, message: string, code?: string, requestId?: string): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', code, requestId };
}
