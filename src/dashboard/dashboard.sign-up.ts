import { Router, type Request, type RequestHandler, type Response } from 'express';
import { notFound } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { replyBody } from './dashboard.actions.js';
import { fieldsOf } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { intoNewBusiness, SETUP_LABELS, type NewBusinessReply } from './dashboard.setup.js';
import { ACCOUNT, anonymousToken, mountPublicForm } from './dashboard.public-forms.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const CONFIRM_LABELS = { token: 'app.signup.field.token' };

/**
 * /app/sign-up (SIGNUP=open, else a 404): the first run's form without its token, running
 * `requestSignUp`. Nothing is created until the link mailed to the address is followed
 * (/app/sign-up/confirm, running `confirmSignUp`), which creates the business and signs its owner
 * in; a link that is not live costs the address one failure, as a reset or invite token does. The
 * answer to the form is the same whether or not the address has an account.
 */
export function signUpPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const whenOpen: RequestHandler = (_req, _res, next) => {
    if (!services.signupOpen) throw notFound('Page');
    next();
  };
  const show = (req: Request, res: Response, status: number, view: Record<string, unknown>, errors: FieldErrors = {}) =>
    sendView(res, status, 'sign-up', { title: t('app.signup.title'), csrf: anonymousToken(req, res), errors, ...view });

  router.get('/sign-up', whenOpen, (req, res) => show(req, res, 200, { values: {}, sent: req.query.sent === '1' }));
  mountPublicForm(router, services, holdWhileInFlight, {
    path: '/sign-up',
    before: [whenOpen],
    runs: ACCOUNT.requestSignUp,
    body: (fields) => fieldsOf(fields, ['business_name', 'name', 'email', 'password']),
    labels: SETUP_LABELS,
    done: () => `${BASE_PATH}/sign-up?sent=1`,
    again: (req, res, { status, errors }, fields) => {
      show(req, res, status, { values: fieldsOf(fields, ['business_name', 'name', 'email']) }, errors);
    },
  });

  router.get('/sign-up/confirm', whenOpen, (req, res) => show(req, res, 200, { confirm: true, values: {} }));
  mountPublicForm(router, services, holdWhileInFlight, {
    path: '/sign-up/confirm',
    before: [whenOpen],
    runs: ACCOUNT.confirmSignUp,
    body: (fields) => fieldsOf(fields, ['token']),
    labels: CONFIRM_LABELS,
    fieldOfCode: { INVALID_SIGNUP_TOKEN: 'token' },
    done: (req, res, reply) => intoNewBusiness(services, req, res, replyBody<NewBusinessReply>(reply)),
    again: (req, res, { status, errors }, fields) =>
      show(req, res, status, { confirm: true, values: fieldsOf(fields, ['token']) }, errors),
  });
  return router;
}
