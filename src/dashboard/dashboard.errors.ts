import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { CredentialError, HttpError, RateLimitError, serviceUnavailable } from '../errors/http-error.js';
import { isUnavailable } from '../http/error-handler.js';
import { countCredentialFailure } from '../http/rate-limit.js';
import { t } from '../shared/messages.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView } from './dashboard.views.js';

/** The statuses with a heading of their own (`app.error.<status>`); any other is `app.error.other`. */
const HEADINGS = new Set([400, 403, 404, 409, 413, 429, 503]);

/**
 * Refusals a person needs other words for than an integration does, by code (the API's 429 body says
 * `RATE_LIMIT_EXCEEDED` for all of them): `app.error.<code>.heading` and `.message`; the page adds
 * when to try again from Retry-After.
 */
const CODE_WORDS = new Set(['CREDENTIAL_BUDGET', 'BUSINESS_SHARE']);

/** The HttpError an error stands for on a page; a database that cannot be reached is a 503, as in the API. */
function pageError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isUnavailable(err)) return serviceUnavailable(t('app.error.database'));
  const status = (err as { status?: unknown } | null)?.status;
  // body-parser's refusals (a form too large, a bad encoding) are the client's: their status, never a 500
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, t(status === 413 ? 'app.error.form_too_large' : 'app.error.form_unreadable'));
  }
  return new HttpError(500, t('app.error.internal'), 'INTERNAL_ERROR');
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
  const own = error.code !== undefined && CODE_WORDS.has(error.code);
  const heading = own
    ? t(`app.error.${error.code}.heading`)
    : t(`app.error.${HEADINGS.has(error.statusCode) ? error.statusCode : 'other'}`);
  // Until the services raise codes for every refusal, a refusal's own words are its message.
  const message = own ? t(`app.error.${error.code}.message`) : error.message;
  sendView(res, error.statusCode, 'message', {
    title: heading,
    heading,
    message,
    retryAfter,
    link: { href: BASE_PATH, label: t('app.error.back') },
  });
};

export const dashboardNotFound: RequestHandler = () => {
  throw new HttpError(404, t('app.error.no_page'), 'NOT_FOUND');
};
