import { Router, type Request, type RequestHandler, type Response } from 'express';
import { passwordResetBody, passwordResetConfirmBody } from '../accounts/account.schemas.js';
import { requestPasswordReset, resetPassword } from '../accounts/account.service.js';
import { liveBrowserSession } from '../auth/browser-session.js';
import { CredentialError, RateLimitError } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { loginBody } from '../sessions/session.schemas.js';
import { login, logout, startSession } from '../sessions/session.service.js';
import { currentSession, requireSession, signedInOf } from './dashboard.access.js';
import { chargedRefusal } from './dashboard.errors.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import {
  assertFormPost,
  BASE_PATH,
  clearSessionCookie,
  ensureFormCookie,
  FORM_COOKIE,
  formToken,
  readCookie,
  safeNext,
  SESSION_COOKIE,
  setSessionCookie,
} from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** The form token of pages shown before a session exists: derived from the browser's form cookie. */
export const anonymousToken = (req: Request, res: Response) => formToken(ensureFormCookie(req, res));

/** A form shown before a session exists: posted from here, with the form cookie's token. */
export const checkAnonymousForm =
  (services: Services): RequestHandler =>
  (req, _res, next) => {
    assertFormPost(req, services, readCookie(req, FORM_COOKIE));
    next();
  };

/** Signs the browser in with a new session, ending the one it had (if any). */
export async function signIn(services: Services, req: Request, res: Response, token: string): Promise<void> {
  const previous = await liveBrowserSession(services.db.pool, readCookie(req, SESSION_COOKIE));
  if (previous) await logout(services.db.pool, previous);
  setSessionCookie(req, res, token);
}

/**
 * A refused password or token on a form: charged to the address's failure budget like the JSON
 * routes' refusals; past the budget the page is the 429 (thrown), else the form is shown again.
 */
export async function refusedCredential(req: Request, err: CredentialError): Promise<void> {
  const charged = await chargedRefusal(req, err);
  if (charged instanceof RateLimitError) throw charged;
}

const SIGN_IN_LABELS = { email: 'Email', password: 'Password' };

/**
 * Sign-in and sign-out, and a forgotten password: the JSON routes' services (login, logout,
 * requestPasswordReset, resetPassword), the same throttle per email and the same failure budget per
 * address (the posts hold a place in it while in flight, as /auth/login does).
 */
export function signInPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const pool = services.db.pool;
  const anonymousPost = [holdWhileInFlight, formBody, checkAnonymousForm(services)];

  const showSignIn = (
    req: Request,
    res: Response,
    status: number,
    view: { next: string; values?: Record<string, string>; errors?: FieldErrors; formError?: string; notice?: string },
  ) => sendView(res, status, 'sign-in', { title: 'Sign in', csrf: anonymousToken(req, res), ...view });

  router.get('/sign-in', async (req, res) => {
    const next = safeNext(req.query.next);
    if (await currentSession(pool, req)) return res.redirect(303, next);
    const notice = req.query.signed_out === '1' ? 'You are signed out.' : undefined;
    showSignIn(req, res, 200, { next, notice });
  });

  router.post('/sign-in', ...anonymousPost, async (req, res) => {
    const fields = formFields(req);
    const next = safeNext(fields.next);
    const values = { email: fields.email ?? '' };
    const form = parseForm(loginBody, { email: fields.email ?? '', password: fields.password ?? '' }, SIGN_IN_LABELS);
    if (!form.ok) return showSignIn(req, res, 400, { next, values, errors: form.errors });
    let token: string;
    try {
      ({ token } = await login(pool, services.loginThrottle, form.data.email, form.data.password));
    } catch (err) {
      if (!(err instanceof CredentialError)) throw err;
      await refusedCredential(req, err);
      const errors = { password: 'The email or the password is not right.' };
      return showSignIn(req, res, 401, { next, values, errors });
    }
    await signIn(services, req, res, token);
    res.redirect(303, next);
  });

  router.post('/sign-out', requireSession(services), formBody, async (req, res) => {
    assertFormPost(req, services, signedInOf(res).token);
    const session = await liveBrowserSession(pool, signedInOf(res).token);
    if (session) await logout(pool, session);
    clearSessionCookie(req, res);
    res.redirect(303, `${BASE_PATH}/sign-in?signed_out=1`);
  });

  router.get('/forgot-password', (req, res) => {
    sendView(res, 200, 'forgot-password', { title: 'Forgot your password?', csrf: anonymousToken(req, res) });
  });

  router.post('/forgot-password', ...anonymousPost, async (req, res) => {
    const values = { email: formFields(req).email ?? '' };
    const form = parseForm(passwordResetBody, values, { email: 'Email' });
    const view = { title: 'Forgot your password?', csrf: anonymousToken(req, res), values };
    if (!form.ok) return sendView(res, 400, 'forgot-password', { ...view, errors: form.errors });
    await requestPasswordReset(pool, services.mail, form.data.email);
    sendView(res, 200, 'forgot-password', { ...view, sent: true });
  });

  const showReset = (req: Request, res: Response, status: number, values: Record<string, string>, errors = {}) =>
    sendView(res, status, 'reset-password', {
      title: 'Choose a new password',
      csrf: anonymousToken(req, res),
      values,
      errors,
    });

  router.get('/reset-password', (req, res) => showReset(req, res, 200, {}));

  router.post('/reset-password', ...anonymousPost, async (req, res) => {
    const fields = formFields(req);
    const values = { token: fields.token ?? '' };
    const labels = { token: 'The reset token', password: 'The new password' };
    const form = parseForm(passwordResetConfirmBody, { token: values.token, password: fields.password ?? '' }, labels);
    if (!form.ok) return showReset(req, res, 400, values, form.errors);
    let userId: string;
    try {
      ({ userId } = await resetPassword(pool, form.data));
    } catch (err) {
      if (!(err instanceof CredentialError)) throw err;
      await refusedCredential(req, err);
      const token = 'This reset link is invalid, expired or already used: ask for a new one.';
      return showReset(req, res, 401, values, { token });
    }
    // The link came by email to the account's address: that proves who this is, as a sign-in would.
    const { token } = await startSession(pool, userId);
    await signIn(services, req, res, token);
    res.redirect(303, BASE_PATH);
  });

  return router;
}
