import { Router, type Request, type RequestHandler, type Response } from 'express';
import { notFound } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { startSession } from '../sessions/session.service.js';
import { signUpBody } from '../setup/setup.schemas.js';
import { confirmSignUp, requestSignUp } from '../setup/signup.service.js';
import { t } from '../shared/messages.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { SETUP_LABELS } from './dashboard.setup.js';
import { anonymousToken, checkAnonymousForm, signIn } from './dashboard.public-forms.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const labelWords = () => Object.fromEntries(Object.entries(SETUP_LABELS).map(([field, key]) => [field, t(key)]));

/**
 * /app/sign-up (SIGNUP=open, else a 404): the first run's form without its token. Nothing is created
 * until the link mailed to the address is followed (/app/sign-up/confirm), which creates the business
 * and signs its owner in. The answer to the form is the same whether or not the address has an account.
 */
export function signUpPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const pool = services.db.pool;
  const whenOpen: RequestHandler = (_req, _res, next) => {
    if (!services.signupOpen) throw notFound('Page');
    next();
  };
  const anonymousPost = [whenOpen, holdWhileInFlight, formBody, checkAnonymousForm(services)];
  const show = (req: Request, res: Response, status: number, view: Record<string, unknown>, errors: FieldErrors = {}) =>
    sendView(res, status, 'sign-up', { title: t('app.signup.title'), csrf: anonymousToken(req, res), errors, ...view });

  router.get('/sign-up', whenOpen, (req, res) => show(req, res, 200, { values: {} }));
  router.post('/sign-up', ...anonymousPost, async (req, res) => {
    const fields = formFields(req);
    const values = { business_name: fields.business_name ?? '', name: fields.name ?? '', email: fields.email ?? '' };
    const form = parseForm(signUpBody, { ...values, password: fields.password ?? '' }, labelWords());
    if (!form.ok) return show(req, res, 400, { values }, form.errors);
    await requestSignUp(pool, services.mail, form.data, services.inviteLimits.perAddressPerDay);
    show(req, res, 202, { values: {}, sent: form.data.email });
  });

  router.get('/sign-up/confirm', whenOpen, (req, res) => show(req, res, 200, { confirm: true, values: {} }));
  router.post('/sign-up/confirm', ...anonymousPost, async (req, res) => {
    const token = formFields(req).token ?? '';
    const created = await confirmSignUp(pool, token);
    if (!created) return show(req, res, 401, { confirm: true, values: { token } }, { token: t('app.signup.refused') });
    const session = await startSession(pool, created.owner.id);
    await signIn(services, req, res, session.token);
    res.redirect(303, `${BASE_PATH}/b/${created.business.id}`);
  });
  return router;
}
