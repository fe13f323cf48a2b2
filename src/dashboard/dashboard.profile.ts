import { Router, type Request, type RequestHandler, type Response } from 'express';
import { accountFeature } from '../accounts/account.routes.js';
import { operation } from '../http/operations.js';
import type { Services } from '../http/route.js';
import { profileFeature } from '../profile/profile.routes.js';
import type { SessionList } from '../profile/profile.responses.js';
import type { CurrentSession } from '../sessions/session.responses.js';
import { sessionFeature } from '../sessions/session.routes.js';
import { t } from '../shared/messages.js';
import { replyBody, type Refused } from './dashboard.actions.js';
import { anonymousToken, mountPublicForm } from './dashboard.public-forms.js';
import { requireSession, signedInOf, userFrame, type SignedIn } from './dashboard.access.js';
import { BASE_PATH } from './dashboard.session.js';
import { mountUserForm, sessionOf, type UserFormAction, type UserPageCall } from './dashboard.user-forms.js';
import { sendView, when } from './dashboard.views.js';

const OPERATIONS = {
  me: operation(sessionFeature, 'getCurrentSession'),
  rename: operation(profileFeature, 'updateProfile'),
  email: operation(profileFeature, 'requestEmailChange'),
  sessions: operation(profileFeature, 'listMySessions'),
  endSession: operation(profileFeature, 'endMySession'),
  password: operation(accountFeature, 'changePassword'),
};

/** The confirmation page's field; a refusal about the address names it by the profile's Email label. */
const CONFIRM_LABELS = { token: 'app.profile.confirm.field.token', email: 'app.setup.field.email' };

const SAVED = new Set(['name', 'email', 'password', 'session']);
const PAGE = `${BASE_PATH}/profile`;

/**
 * /app/profile: the user's name, email address, password and sessions. What it shows comes from the
 * operations /auth/me and /auth/me/sessions; each form runs one declared operation (mountUserForm).
 * Which form a refusal belongs to is in `refused.form`, so only that one is shown again with it.
 */
export function profilePages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();

  const render = async (req: Request, res: Response, who: SignedIn, refused?: Refused & { form: string }) => {
    const session = await sessionOf(services, who);
    const me = replyBody<CurrentSession>(await OPERATIONS.me.invoke(services, session, { req }));
    const list = replyBody<SessionList>(await OPERATIONS.sessions.invoke(services, session, { req }));
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    sendView(res, refused?.status ?? 200, 'profile', {
      ...userFrame(who, t('app.profile.title')),
      user: { name: me.user.name, email: me.user.email ?? who.user.email },
      me: me.user,
      sessions: list.data.map((s) => ({ ...s, lastUsed: when(s.last_used_at ? new Date(s.last_used_at) : null) })),
      saved: saved && t(`app.profile.saved.${saved}`),
      form: refused?.form,
      values: refused?.values ?? {},
      errors: refused?.errors ?? {},
    });
  };

  router.get('/profile', requireSession(services), async (req, res) => render(req, res, signedInOf(res)));

  const again =
    (form: string) =>
    (call: UserPageCall, refused: Refused): Promise<void> =>
      render(call.req, call.res, call.who, { ...refused, form });
  const saved = (what: string) => () => `${PAGE}?saved=${what}`;

  const forms: UserFormAction[] = [
    {
      path: '/profile/name',
      runs: OPERATIONS.rename,
      body: (f) => ({ name: f.name ?? '' }),
      labels: { name: 'app.profile.field.name' },
      done: saved('name'),
      again: again('name'),
    },
    {
      path: '/profile/email',
      runs: OPERATIONS.email,
      body: (f) => ({ email: f.email ?? '' }),
      labels: { email: 'app.profile.field.new_email' },
      done: saved('email'),
      again: again('email'),
    },
    {
      path: '/profile/password',
      runs: OPERATIONS.password,
      body: (f) => ({ current_password: f.current_password ?? '', new_password: f.new_password ?? '' }),
      labels: {
        current_password: 'app.profile.field.current_password',
        new_password: 'app.profile.field.new_password',
      },
      credential: { field: 'current_password', words: t('app.profile.wrong_password') },
      done: saved('password'),
      again: again('password'),
    },
    {
      path: '/profile/sessions/:session_id/sign-out',
      runs: OPERATIONS.endSession,
      done: saved('session'),
      again: again('session'),
    },
  ];
  for (const form of forms) mountUserForm(router, services, form);

  // The link mailed to a new address: anyone holding it confirms it, signed in or not.
  const confirmOp = operation(profileFeature, 'confirmEmailChange');
  const showConfirm = (req: Request, res: Response, status: number, view: Record<string, unknown>) =>
    sendView(res, status, 'confirm-email', {
      title: t('app.profile.confirm.title'),
      csrf: anonymousToken(req, res),
      ...view,
    });
  router.get('/confirm-email', (req, res) => showConfirm(req, res, 200, { done: req.query.done === '1' }));
  mountPublicForm(router, services, holdWhileInFlight, {
    path: '/confirm-email',
    runs: confirmOp,
    body: (fields) => ({ token: fields.token ?? '' }),
    labels: CONFIRM_LABELS,
    fieldOfCode: { INVALID_CONFIRMATION_TOKEN: 'token' },
    done: () => `${BASE_PATH}/confirm-email?done=1`,
    // The address the link confirms got an account meanwhile: said on the form's one field.
    again: (req, res, { status, errors }, fields) =>
      showConfirm(req, res, status, {
        values: { token: fields.token ?? '' },
        errors: { token: errors.token ?? errors.email ?? '' },
      }),
  });
  return router;
}

/** The profile's forms, for the tests that hold the pages against the route table. */
export const PROFILE_OPERATIONS = OPERATIONS;
