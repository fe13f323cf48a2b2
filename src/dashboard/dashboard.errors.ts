import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import {
  CredentialError,
  HttpError,
  RateLimitError,
  refusalData,
  RETRY_AFTER_SECONDS,
  type Refusal,
} from '../errors/http-error.js';
import { clientStatus, isUnavailable } from '../http/error-handler.js';
import { countCredentialFailure } from '../http/rate-limit.js';
import { hasMessage, t } from '../shared/messages.js';
import { fieldWords } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView } from './dashboard.views.js';

/** The statuses with words of their own (`app.error.<status>`, `app.error.message.<status>`); any other is `other`. */
const STATUSES = new Set([400, 401, 403, 404, 409, 413, 429, 503]);

/**
 * The refusals a person needs other words for than their status's, by code: `app.error.<code>.message`
 * (and `.heading` where the status's heading does not fit). The API's 429 body says
 * `RATE_LIMIT_EXCEEDED` for all of them; the page adds when to try again from Retry-After.
 */
const CODE_MESSAGE = (code: string | undefined) => (code ? `app.error.${code}.message` : '');

/** The page's own failures, by code: the words are the catalogue's, never an error's message. */
const PAGE_FAILURES = {
  database: 'PAGE_DATABASE',
  tooLarge: 'PAGE_FORM_TOO_LARGE',
  unreadable: 'PAGE_FORM_UNREADABLE',
  internal: 'INTERNAL_ERROR',
} as const;

/** The HttpError an error stands for on a page; a database that cannot be reached is a 503, as in the API. */
function pageError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isUnavailable(err)) {
    const retry = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
    return new HttpError(503, PAGE_FAILURES.database, PAGE_FAILURES.database, retry);
  }
  // body-parser's refusals (a form too large, a bad encoding) are the client's: their status, never a 500
  const status = clientStatus(err);
  if (status !== undefined) {
    const code = status === 413 ? PAGE_FAILURES.tooLarge : PAGE_FAILURES.unreadable;
    return new HttpError(status, code, code);
  }
  return new HttpError(500, PAGE_FAILURES.internal, PAGE_FAILURES.internal);
}

/**
 * What an error page says, from the catalogue alone: the code's own words where it has them, else
 * the first refused field's (`validation.<code>`), else the status's. Never the error's message.
 */
export function errorWords(error: Refusal): { heading: string; message: string } {
  const status = STATUSES.has(error.status) ? String(error.status) : 'other';
  const ownHeading = `app.error.${error.code}.heading`;
  const heading = t(error.code && hasMessage(ownHeading) ? ownHeading : `app.error.${status}`);
  if (hasMessage(CODE_MESSAGE(error.code))) return { heading, message: t(CODE_MESSAGE(error.code)) };
  const field = error.errors[0];
  if (field) return { heading, message: Object.values(fieldWords([field]))[0]! };
  return { heading, message: t(`app.error.message.${status}`) };
}

/**
 * A refused credential on a form (a password, an invite or reset token) costs the address one failure,
 * as on the JSON routes: past the budget, the answer is the 429 instead.
 */
export async function chargedRefusal(req: Request, err: CredentialError): Promise<HttpError> {
  return (await countCredentialFailure(req)) ?? err;
}

/**
 * Errors on dashboard pages are pages, never JSON and never a stack: the status, and words from the
 * catalogue chosen by the error's code, field and status (errorWords), with Retry-After on a 429 or a 503.
 */
export const dashboardErrors: ErrorRequestHandler = async (err: unknown, req, res, next) => {
  if (res.headersSent) return next(err);
  let error = pageError(err);
  if (error instanceof CredentialError) error = await chargedRefusal(req, error);
  const refusal = refusalData(error);
  if (refusal.status >= 500 && refusal.status !== 503) req.log.error({ err }, 'dashboard error');
  else if (refusal.code === PAGE_FAILURES.database) req.log.warn({ err }, 'database unavailable');
  res.set(refusal.headers);
  const retryAfter = error instanceof RateLimitError ? String(error.retryAfter) : res.get('Retry-After');
  const { heading, message } = errorWords(refusal);
  sendView(res, refusal.status, 'message', {
    title: heading,
    heading,
    message,
    retryAfter,
    link: { href: BASE_PATH, label: t('app.error.back') },
  });
};

export const dashboardNotFound: RequestHandler = () => {
  throw new HttpError(404, 'No dashboard page here', 'PAGE_NOT_FOUND');
};
