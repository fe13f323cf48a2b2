import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { SessionRow } from '../auth/credential.repository.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import type { AcceptedInvite } from '../team/team.responses.js';
import { userFrame, type SignedIn } from './dashboard.access.js';
import { replyBody } from './dashboard.actions.js';
import { fieldsOf, formBody, formFields, runsOperations } from './dashboard.forms.js';
import { ACCOUNT, anonymousToken, browserSessions, logIn, refusalWords } from './dashboard.public-forms.js';
import { assertFormPost, BASE_PATH, FORM_COOKIE, readCookie, SESSION_COOKIE } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** Which form the page shows: a new account, an existing one signing in, or the signed-in user joining. */
type Variant = 'create' | 'sign-in' | 'join';

interface InviteView {
  values: Record<string, string>;
  errors?: FieldErrors;
}

/** The fields' labels; a refusal's words are `<label key>.<code>` (`invite.field.token.invalid_invite`). */
const LABELS = {
  token: 'invite.field.token',
  name: 'invite.field.name',
  password: 'invite.field.password',
  email: 'invite.field.email',
  '': 'invite.form',
};
/** The refusals without fields, by code: the field they are about (the form itself, '', for the others). */
const FIELD_OF_CODE = {
  INVALID_INVITE: 'token',
  UNAUTHORIZED: 'password',
  SIGN_IN_REQUIRED: '',
  INVITE_FOR_ANOTHER_ACCOUNT: '',
};

/**
 * `/accept-invite#token=…`, the link of every invite email: a new account chooses its name and
 * password; an existing account signs in (or is signed in) and joins. Each runs the declared
 * operations a client would (`acceptInvite`, `login`), which decide everything, in the same order:
 * the token first, then the account. The page keeps the cookie, the form token and the words.
 */
export function invitePages(services: Services, holdWhileInFlight: RequestHandler): Router {
  const router = Router();
  const sessions = browserSessions(services);

  const show = (req: Request, res: Response, status: number, variant: Variant, view: InviteView, who?: SignedIn) => {
    const title = t('invite.title');
    const frame = who ? userFrame(who, title) : { title, csrf: anonymousToken(req, res) };
    const formError = view.errors?.[''];
    sendView(res, status, 'accept-invite', { ...frame, ...view, formError, signIn: variant === 'sign-in' });
  };

  /** What refused the form, for the person to act on: the form again, the reason beside its field. */
  const refused = async (req: Request, res: Response, err: unknown, variant: Variant, values: InviteView['values']) => {
    const { status, errors } = await refusalWords(req, err, LABELS, FIELD_OF_CODE);
    // An address with an account signs in to accept: the sign-in form, whatever was shown.
    const code = (err as { code?: string }).code;
    show(req, res, status, code === 'SIGN_IN_REQUIRED' ? 'sign-in' : variant, { values, errors });
  };

  /** Runs acceptInvite as the browser's session (the cookie stands where a Bearer token would). */
  const accept = async (req: Request, session: SessionRow | null, body: Record<string, string | undefined>) => {
    if (session) req.dashboardSession = session;
    return replyBody<AcceptedInvite>(await ACCOUNT.acceptInvite.invoke(services, null, { req, body }));
  };
  const home = (accepted: AcceptedInvite) => `${BASE_PATH}/b/${accepted.business_id}`;

  router.get('/accept-invite', async (req, res) => {
    const who = await sessions.current(req);
    show(req, res, 200, who ? 'join' : 'create', { values: {} }, who ?? undefined);
  });

  /** The signed-in user's form: its form token is the session's. */
  const join = async (req: Request, res: Response, token: string) => {
    const cookie = readCookie(req, SESSION_COOKIE);
    assertFormPost(req, services, cookie);
    const session = await sessions.live(cookie);
    const who = session && (await sessions.describe(session, cookie!));
    if (!session || !who) {
      return show(req, res, 401, 'sign-in', { values: { token }, errors: { '': t('invite.form.session_ended') } });
    }
    try {
      res.redirect(303, home(await accept(req, session, { token })));
    } catch (err) {
      const { status, errors } = await refusalWords(req, err, LABELS, FIELD_OF_CODE);
      show(req, res, status, 'join', { values: { token }, errors }, who);
    }
  };

  // Several submit buttons (`intent`), two of which only show the other form: wired here, naming what it runs.
  const post = async (req: Request, res: Response) => {
    const fields = formFields(req);
    const values = fieldsOf(fields, ['token', 'name', 'email']);
    if (fields.intent === 'join') return join(req, res, values.token);

    assertFormPost(req, services, readCookie(req, FORM_COOKIE));
    if (fields.intent === 'existing') return show(req, res, 200, 'sign-in', { values });
    if (fields.intent === 'new') return show(req, res, 200, 'create', { values });

    if (fields.intent === 'sign-in') {
      try {
        const token = await logIn(services, req, res, values.email, fields.password ?? '');
        res.redirect(303, home(await accept(req, await sessions.live(token), { token: values.token })));
      } catch (err) {
        await refused(req, res, err, 'sign-in', values);
      }
      return;
    }

    // A new account: the invite came by email to this address, and the person chose the password: signing
    // in with it is the `login` any client would run next.
    const password = fields.password || undefined;
    try {
      const accepted = await accept(req, null, { token: values.token, name: values.name || undefined, password });
      await logIn(services, req, res, accepted.user.email, password ?? '');
      res.redirect(303, home(accepted));
    } catch (err) {
      await refused(req, res, err, 'create', values);
    }
  };
  router.post('/accept-invite', holdWhileInFlight, formBody, runsOperations(post, ACCOUNT.acceptInvite, ACCOUNT.login));

  return router;
}
