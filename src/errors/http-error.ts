import { STATUS_CODES } from 'node:http';

/**
 * One field's refusal, as data: the field (`content`, `voter.email`; empty for the body as a whole),
 * a code a reader words in its own language (locales/en.json, `validation.<code>`), the values those
 * words need, and the service's own words in English.
 */
export interface FieldError {
  field: string;
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

/** An error whose message is safe to show to the client, with the HTTP status it maps to. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
    /** The fields at fault, each with its code (a 400's `errors`). */
    readonly errors?: readonly FieldError[],
  ) {
    super(message);
  }
}

/** What a refused input was: a body (`VALIDATION_FAILED`) or a query string (`INVALID_QUERY`). */
const INPUTS = {
  body: { failed: 'Validation failed', code: 'VALIDATION_FAILED' },
  query: { failed: 'Query failed', code: 'INVALID_QUERY' },
} as const;

/**
 * The one way a refused input is raised: its fields and codes as data, and a message that names
 * each (`content: must not be empty` after the input's prefix); `detail` words the message otherwise.
 */
export function invalidInput(
  errors: readonly FieldError[],
  { input = 'body', detail }: { input?: keyof typeof INPUTS; detail?: string } = {},
): HttpError {
  const words = detail ?? errors.map((error) => (error.field ? `${error.field}: ` : '') + error.message).join('; ');
  const { failed, code } = INPUTS[input];
  return new HttpError(400, `${failed}: ${words}`, code, {}, errors);
}

/** One field refused by a service (a location that is not the business's): its code, and its words. */
export const invalidField = (field: string, code: string, message: string, params?: FieldError['params']) =>
  invalidInput([{ field, code, message, ...(params ? { params } : {}) }]);

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
/** A conflict about one field (a name taken) says so in `errors`, as a 400 would. */
export const conflict = (message: string, errors?: readonly FieldError[]) =>
  new HttpError(409, message, 'CONFLICT', {}, errors);
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
  errors?: readonly FieldError[];
}

export function errorBody(
  statusCode: number,
  message: string,
  code?: string,
  requestId?: string,
  errors?: readonly FieldError[],
): ErrorBody {
  const body: ErrorBody = { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', code, requestId };
  return errors ? { ...body, errors } : body;
}

/** The body an HttpError is answered with. */
export const bodyOf = (error: HttpError, requestId?: string): ErrorBody =>
  errorBody(error.statusCode, error.message, error.code, requestId, error.errors);

/**
 * A refusal as data, as its reply would carry it: the status to answer, the code, the fields at fault
 * and the headers. What a page words and answers with; it never reads the error itself.
 */
export interface Refusal {
  status: number;
  code?: string;
  errors: readonly FieldError[];
  headers: Record<string, string>;
  /** A refused credential: it costs the client address one failure. */
  credential: boolean;
}

export const refusalData = (error: HttpError): Refusal => ({
  status: error.statusCode,
  ...(error.code === undefined ? {} : { code: error.code }),
  errors: error.errors ?? [],
  headers: error.headers,
  credential: error instanceof CredentialError,
});
