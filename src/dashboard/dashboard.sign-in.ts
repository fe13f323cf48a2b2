import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { fieldsOf } from './dashboard.forms.js';
import {
  ACCOUNT,
  anonymousToken,
  browserSessions,
  mountPublicForm,
  signIn,
  type PublicForm,
} from './dashboard.public-forms.js';
import { replyBody } from './dashboard.actions.js';
import { BASE_PATH, clearSessionCookie, safeNext } from './dashboard.session.js';
import { mountUserForm } from './dashboard.user-forms.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const SIGN_IN_LABELS = { email: 'signin.field.email', password: 'signin.field.password' };
const FORGOT_LABELS = { email: 'signin.field.email' };
const RESET_LABELS = { token: 'signin.field.reset_token', password: 'signin.field.new_password' };

/** What the sign-in page says on arriving: signed out, or a new password set. */
const NOTICES: Record<string, string> = { signed_out: 'signin.notice.signed_out', reset: 'signin.notice.reset' };

interface SignInView {
  next: string;
  values?: Record<string, string>;
  errors?: FieldErrors;
  notice?: string;
}

const showSignIn = (req: Request, res: Response, status: number, view: SignInView) =>
  sendView(res, status, 'sign-in', { title: t('signin.title'), csrf: anonymousToken(req, res), ...view });

const showForgot = (req: Request, res: Response, status: number, view: Record<string, unknown> = {}) =>
  sendView(res, status, 'forgot-password', {
    title: t('signin.forgot.title'),
    csrf: anonymousToken(req, res),
    values: {},
    ...view,
  });

const showReset = (req: Request, res: Response, status: number, values: Record<string, string>, errors = {}) =>
  sendView(res, status, 'reset-password', {
    title: t('signin.reset.title'),
    csrf: anonymousToken(req, res),
    values,
    errors,
  });

/**
 * The forms before a session, each a declared operation: `login` (then the page sets its cookie),
 * `requestPasswordReset` and `confirmPasswordReset` (then the person signs in with the new password,
 * as the operation says: it ends every session of the account).
 */
function publicForms(services: Services): PublicForm[] {
  return [
    {
      path: '/sign-in',
      runs: ACCOUNT.login,
      body: (fields) => fieldsOf(fields, ['email', 'password']),
      labels: SIGN_IN_LABELS,
      fieldOfCode: { UNAUTHORIZED: 'password' },
      done: async (req, res, reply, fields) => {
        await signIn(services, req, res, replyBody<{ token: string }>(reply).token);
        return safeNext(fields.next);
      },
      again: (req, res, { status, errors }, fields) =>
        showSignIn(req, res, status, { next: safeNext(fields.next), values: fieldsOf(fields, ['email']), errors }),
    },
    {
      path: '/forgot-password',
      runs: ACCOUNT.requestReset,
      body: (fields) => fieldsOf(fields, ['email']),
      labels: FORGOT_LABELS,
      done: () => `${BASE_PATH}/forgot-password?sent=1`,
      again: (req, res, { status, errors }, fields) =>
        showForgot(req, res, status, { values: fieldsOf(fields, ['email']), errors }),
    },
    {
      path: '/reset-password',
      runs: ACCOUNT.confirmReset,
      body: (fields) => fieldsOf(fields, ['token', 'password']),
      labels: RESET_LABELS,
      fieldOfCode: { INVALID_RESET_TOKEN: 'token' },
      done: () => `${BASE_PATH}/sign-in?notice=reset`,
      again: (req, res, { status, errors }, fields) => showReset(req, res, status, fieldsOf(fields, ['token']), errors),
    },
  ];
}

/**
 * Sign-in and sign-out, and a forgotten password: the JSON routes' declared operations, with their
 * throttle per email and failure budget per address (the posts hold a place in it while in flight, as
 * /auth/login does). The page keeps the cookie, the form token and the words.
 */
export function signInPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const sessions = browserSessions(services);

  router.get('/sign-in', async (req, res) => {
    const next = safeNext(req.query.next);
    if (await sessions.current(req)) return res.redirect(303, next);
    // `signed_out=1` is the older address of the same notice.
    const asked = req.query.signed_out === '1' ? 'signed_out' : req.query.notice;
    const key = typeof asked === 'string' ? NOTICES[asked] : undefined;
    showSignIn(req, res, 200, { next, notice: key && t(key) });
  });

  // Signing out is a user form (the session's own operation), then the page drops its cookie.
  mountUserForm(router, services, {
    path: '/sign-out',
    runs: ACCOUNT.logout,
    done: ({ req, res }) => {
      clearSessionCookie(req, res);
      return `${BASE_PATH}/sign-in?signed_out=1`;
    },
    again: () => undefined,
  });

  router.get('/forgot-password', (req, res) => showForgot(req, res, 200, { sent: req.query.sent === '1' }));
  router.get('/reset-password', (req, res) => showReset(req, res, 200, {}));

  for (const form of publicForms(services)) mountPublicForm(router, services, holdWhileInFlight, form);
  return router;
}
