import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { CredentialError, HttpError, RateLimitError, serviceUnavailable } from '../errors/http-error.js';
import { isUnavailable } from '../http/error-handler.js';
import { countCredentialFailure } from '../http/rate-limit.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView } from './dashboard.views.js';

const HEADINGS: Record<number, string> = {
  400: 'Something is not right',
  403: 'Not allowed',
  404: 'Page not found',
  409: 'That cannot be done now',
  413: 'Too much at once',
  429: 'Too many attempts',
  503: 'Back in a moment',
};

/**
 * Refusals a person needs other words for than an integration does, by code (the API's 429 body says
 * `RATE_LIMIT_EXCEEDED` for all of them); the page adds when to try again from Retry-After.
 */
const CODE_MESSAGES: Record<string, [heading: string, message: string]> = {
  CREDENTIAL_BUDGET: [
    'Too many requests',
    'You have opened more pages in the last minute than one account may: pages and the API share that budget.',
  ],
  BUSINESS_SHARE: [
    'Too many requests',
    'This business has many pages and API requests in progress right now. Nothing was changed.',
  ],
};

/** The HttpError an error stands for on a page; a database that cannot be reached is a 503, as in the API. */
function pageError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isUnavailable(err)) return serviceUnavailable('The dashboard cannot reach its database right now.');
  const status = (err as { status?: unknown } | null)?.status;
  // body-parser's refusals (a form too large, a bad encoding) are the client's: their status, never a 500
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, status === 413 ? 'The form sent was too large.' : 'The form could not be read.');
  }
  return new HttpError(500, 'Something went wrong on our side. Please try again in a moment.', 'INTERNAL_ERROR');
}

/**
 * A refused credential on a form (a password, an invite or reset token) costs the address one failure,
 * as on the JSON routes: past the budget, the answer is the 429 instead.
 */
export async function chargedRefusal(req: Request, err: CredentialError): Promise<HttpError> {
  return (await countCredentialFailure(req)) ?? err;
}

/**
 * Errors on dashboard pages are pages, never JSON and never a stack: the status, a heading and the
 * message the service gave (every HttpError's message is written to be shown), with Retry-After on a
 * 429 or a 503.
 */
export const dashboardErrors: ErrorRequestHandler = async (err: unknown, req, res, next) => {
  if (res.headersSent) return next(err);
  let error = pageError(err);
  if (error instanceof CredentialError) error = await chargedRefusal(req, error);
  if (error.statusCode >= 500 && error.statusCode !== 503) req.log.error({ err }, 'dashboard error');
  else if (error.statusCode === 503 && !(err instanceof HttpError)) req.log.warn({ err }, 'database unavailable');
  res.set(error.headers);
  const retryAfter = error instanceof RateLimitError ? String(error.retryAfter) : res.get('Retry-After');
  const [heading, message] = (error.code ? CODE_MESSAGES[error.code] : undefined) ?? [
    HEADINGS[error.statusCode] ?? 'Something went wrong',
    error.message,
  ];
  sendView(res, error.statusCode, 'message', {
    title: heading,
    heading,
    message,
    retryAfter,
    link: { href: BASE_PATH, label: 'Back to the dashboard' },
  });
};

export const dashboardNotFound: RequestHandler = () => {
  throw new HttpError(
    404,
    'There is no dashboard page here. Check the address, or start from the dashboard.',
    'NOT_FOUND',
  );
};
