import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../http/route.js';
import { startSession } from '../sessions/session.service.js';
import { setupBody } from '../setup/setup.schemas.js';
import { completeSetup, firstRunOver, isLiveSetupToken, needsSetup } from '../setup/setup.service.js';
import { t } from '../shared/messages.js';
import { refusalOf, fieldWords } from './dashboard.actions.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { anonymousToken, checkAnonymousForm, signIn } from './dashboard.public-forms.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** The first run's fields, by their catalogue labels (a refusal names the field by its label). */
export const SETUP_LABELS = {
  token: 'app.setup.field.token',
  business_name: 'app.setup.field.business_name',
  name: 'app.setup.field.name',
  email: 'app.setup.field.email',
  password: 'app.setup.field.password',
};
const labelWords = () => Object.fromEntries(Object.entries(SETUP_LABELS).map(([field, key]) => [field, t(key)]));

/** Only while no business exists: after, the page is a 404, GET and POST alike (before the form checks). */
const whileNoBusiness =
  (services: Services): RequestHandler =>
  async (_req, _res, next) => {
    if (!(await needsSetup(services.db.pool))) throw firstRunOver();
    next();
  };

/**
 * /app/setup: the first run in the browser. The link start-up logs (and `admin setup-link` prints)
 * carries a one-time token in its fragment, which the page's script puts in the form; without
 * JavaScript it is pasted. The business and its owner are created as `admin business create` does,
 * the owner is signed in with a new session, and the browser goes to the dashboard.
 */
export function setupPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const pool = services.db.pool;

  const show = (req: Request, res: Response, status: number, values: Record<string, string>, errors: FieldErrors) =>
    sendView(res, status, 'setup', { title: t('app.setup.title'), csrf: anonymousToken(req, res), values, errors });

  router.get('/setup', whileNoBusiness(services), (req, res) => show(req, res, 200, {}, {}));

  router.post(
    '/setup',
    whileNoBusiness(services),
    holdWhileInFlight,
    formBody,
    checkAnonymousForm(services),
    async (req, res) => {
      const fields = formFields(req);
      const values = {
        token: fields.token ?? '',
        business_name: fields.business_name ?? '',
        name: fields.name ?? '',
        email: fields.email ?? '',
      };
      if (!(await isLiveSetupToken(pool, values.token))) {
        return show(req, res, 403, values, { token: t('app.setup.token_refused') });
      }
      const form = parseForm(setupBody, { ...values, password: fields.password ?? '' }, labelWords());
      if (!form.ok) return show(req, res, 400, values, form.errors);
      let created;
      try {
        created = await completeSetup(pool, form.data);
      } catch (err) {
        const refusal = refusalOf(err);
        if (!refusal) throw err;
        const errors = fieldWords(refusal.errors ?? [], SETUP_LABELS);
        if (errors.token) errors.token = t('app.setup.token_refused');
        return show(req, res, refusal.statusCode, values, errors);
      }
      const { token } = await startSession(pool, created.owner.id);
      await signIn(services, req, res, token);
      res.redirect(303, `${BASE_PATH}/b/${created.business.id}`);
    },
  );

  return router;
}
