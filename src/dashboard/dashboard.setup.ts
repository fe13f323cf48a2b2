import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { replyBody } from './dashboard.actions.js';
import { fieldsOf } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { ACCOUNT, anonymousToken, mountPublicForm, signIn } from './dashboard.public-forms.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** The first run's fields, by their catalogue labels (a refusal names the field by its label). */
export const SETUP_LABELS = {
  token: 'app.setup.field.token',
  business_name: 'app.setup.field.business_name',
  name: 'app.setup.field.name',
  email: 'app.setup.field.email',
  password: 'app.setup.field.password',
};

/** What the first run and a confirmed sign-up answer: the new business, and its owner's session. */
export interface NewBusinessReply {
  business: { id: string };
  token: string;
}

/** Signs the new owner in with the session the operation answered; the browser goes to the business. */
export async function intoNewBusiness(services: Services, req: Request, res: Response, reply: NewBusinessReply) {
  await signIn(services, req, res, reply.token);
  return `${BASE_PATH}/b/${reply.business.id}`;
}

/** Only while no business exists (`getSetup`): after, the page is a 404, GET and POST alike (before the form checks). */
const whileNoBusiness =
  (services: Services): RequestHandler =>
  async (req, _res, next) => {
    await ACCOUNT.setupOpen.invoke(services, null, { req });
    next();
  };

/**
 * /app/setup: the first run in the browser. The link start-up logs (and `admin setup-link` prints)
 * carries a one-time token in its fragment, which the page's script puts in the form; without
 * JavaScript it is pasted. The post runs `completeSetup`, which makes the business and its owner as
 * `admin business create` does and answers the owner's new session; the browser goes to the dashboard.
 */
export function setupPages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();

  const show = (req: Request, res: Response, status: number, values: Record<string, string>, errors: FieldErrors) =>
    sendView(res, status, 'setup', { title: t('app.setup.title'), csrf: anonymousToken(req, res), values, errors });

  router.get('/setup', whileNoBusiness(services), (req, res) => show(req, res, 200, {}, {}));

  mountPublicForm(router, services, holdWhileInFlight, {
    path: '/setup',
    before: [whileNoBusiness(services)],
    runs: ACCOUNT.completeSetup,
    body: (fields) => fieldsOf(fields, ['token', 'business_name', 'name', 'email', 'password']),
    labels: SETUP_LABELS,
    done: (req, res, reply) => intoNewBusiness(services, req, res, replyBody<NewBusinessReply>(reply)),
    again: (req, res, { status, errors }, fields) =>
      show(req, res, status, fieldsOf(fields, ['token', 'business_name', 'name', 'email']), errors),
  });

  return router;
}
