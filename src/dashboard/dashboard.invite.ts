import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { SessionRow } from '../auth/credential.repository.js';
import { liveBrowserSession } from '../auth/browser-session.js';
import { CredentialError, HttpError } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { loginBody } from '../sessions/session.schemas.js';
import { login, startSession } from '../sessions/session.service.js';
import { acceptInviteBody } from '../team/team.schemas.js';
import { acceptInvite } from '../team/team.service.js';
import { newPassword } from '../users/password-policy.js';
import { currentSession, describeSignedIn, userFrame, type SignedIn } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH, FORM_COOKIE, readCookie, SESSION_COOKIE } from './dashboard.session.js';
import { anonymousToken, refusedCredential, signIn } from './dashboard.sign-in.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** Which form the page shows: a new account, an existing one signing in, or the signed-in user joining. */
type Variant = 'create' | 'sign-in' | 'join';

interface InviteView {
  values: Record<string, string>;
  errors?: FieldErrors;
  formError?: string;
}

/** A new account's fields: the JSON route's schema, with the name and the password required. */
const newAccount = acceptInviteBody.required({ name: true }).extend({ password: newPassword });

const LABELS = { token: 'The invite token', name: 'Your name', password: 'The password', email: 'Email' };
const INVALID_TOKEN = 'This invite link is invalid, expired or already used: ask for a new invite.';
const WRONG_PASSWORD = 'The email or the password is not right.';

/**
 * `/accept-invite#token=…`, the link of every invite email: a new account chooses its name and
 * password; an existing account signs in (or is signed in) and joins. The JSON route's service,
 * acceptInvite, decides everything, in the same order: the token first, then the account.
 */
export function invitePages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const pool = services.db.pool;

  const show = (req: Request, res: Response, status: number, variant: Variant, view: InviteView, who?: SignedIn) => {
    const frame = who
      ? userFrame(who, 'Accept your invite')
      : { title: 'Accept your invite', csrf: anonymousToken(req, res) };
    sendView(res, status, 'accept-invite', { ...frame, ...view, signIn: variant === 'sign-in' });
  };

  /** What refused the form, for the person to act on: the form again, the reason beside its field. */
  const refused = async (
    req: Request,
    res: Response,
    err: unknown,
    variant: Variant,
    values: Record<string, string>,
    who?: SignedIn,
  ) => {
    if (!(err instanceof HttpError)) throw err;
    if (err instanceof CredentialError) {
      await refusedCredential(req, err);
      const errors: FieldErrors =
        err.code === 'INVALID_INVITE' ? { token: INVALID_TOKEN } : { password: WRONG_PASSWORD };
      return show(req, res, 401, variant, { values, errors }, who);
    }
    if (err.code === 'SIGN_IN_REQUIRED') {
      const formError = 'This email address already has an account: sign in with it to accept.';
      return show(req, res, 401, 'sign-in', { values, formError });
    }
    if (err.statusCode === 403 || err.statusCode === 409) {
      return show(req, res, err.statusCode, variant, { values, formError: err.message }, who);
    }
    throw err;
  };

  /** Accepts as a live session's user; the business's home once it is done. */
  const join = async (req: Request, res: Response, session: SessionRow, token: string, who: SignedIn) => {
    const values = { token };
    try {
      const { invite } = await acceptInvite(pool, { token }, session);
      res.redirect(303, `${BASE_PATH}/b/${invite.business_id}`);
    } catch (err) {
      await refused(req, res, err, 'join', values, who);
    }
  };

  router.get('/accept-invite', async (req, res) => {
    const who = await currentSession(pool, req);
    show(req, res, 200, who ? 'join' : 'create', { values: {} }, who ?? undefined);
  });

  router.post('/accept-invite', holdWhileInFlight, formBody, async (req, res) => {
    const fields = formFields(req);
    const values = { token: fields.token ?? '', name: fields.name ?? '', email: fields.email ?? '' };
    const intent = fields.intent;
    const tokenForm = parseForm(acceptInviteBody, { token: values.token }, LABELS);

    if (intent === 'join') {
      // The signed-in user's form: its token is the session's.
      const cookie = readCookie(req, SESSION_COOKIE);
      assertFormPost(req, services, cookie);
      const session = await liveBrowserSession(pool, cookie);
      const who = session && (await describeSignedIn(pool, session.id, session.user_id, cookie!));
      if (!session || !who) {
        return show(req, res, 401, 'sign-in', { values, formError: 'Your session has ended: sign in to accept.' });
      }
      if (!tokenForm.ok) return show(req, res, 400, 'join', { values, errors: tokenForm.errors }, who);
      return join(req, res, session, tokenForm.data.token, who);
    }

    assertFormPost(req, services, readCookie(req, FORM_COOKIE));
    if (intent === 'existing') return show(req, res, 200, 'sign-in', { values });
    if (intent === 'new') return show(req, res, 200, 'create', { values });

    if (intent === 'sign-in') {
      const loginForm = parseForm(loginBody, { email: values.email, password: fields.password ?? '' }, LABELS);
      if (!tokenForm.ok || !loginForm.ok) {
        const errors = { ...(tokenForm.ok ? {} : tokenForm.errors), ...(loginForm.ok ? {} : loginForm.errors) };
        return show(req, res, 400, 'sign-in', { values, errors });
      }
      let signedIn: Awaited<ReturnType<typeof login>>;
      try {
        signedIn = await login(pool, services.loginThrottle, loginForm.data.email, loginForm.data.password);
      } catch (err) {
        return refused(req, res, err, 'sign-in', values);
      }
      await signIn(services, req, res, signedIn.token);
      const { session, token, user } = signedIn;
      const who = await describeSignedIn(pool, session.id, user.id, token);
      return join(req, res, session, tokenForm.data.token, who!);
    }

    const account = { token: values.token, name: values.name, password: fields.password ?? '' };
    const form = parseForm(newAccount, account, LABELS);
    if (!form.ok) return show(req, res, 400, 'create', { values, errors: form.errors });
    try {
      const { user, invite } = await acceptInvite(pool, form.data, null);
      // The invite came by email to this address: that proves who this is, as a sign-in would.
      const { token } = await startSession(pool, user.id);
      await signIn(services, req, res, token);
      res.redirect(303, `${BASE_PATH}/b/${invite.business_id}`);
    } catch (err) {
      await refused(req, res, err, 'create', values);
    }
  });

  return router;
}
