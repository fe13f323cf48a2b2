import type { Request, RequestHandler, Response, Router } from 'express';
import type { SessionRow } from '../auth/credential.repository.js';
import { liveBrowserSession } from '../auth/browser-session.js';
import { HttpError, refusalData } from '../errors/http-error.js';
import { countCredentialFailure } from '../http/rate-limit.js';
import { operation } from '../http/operations.js';
import type { Reply } from '../http/reply.js';
import type { Route, Services } from '../http/route.js';
import { accountFeature } from '../accounts/account.routes.js';
import { sessionFeature } from '../sessions/session.routes.js';
import { setupFeature } from '../setup/setup.routes.js';
import { teamFeature } from '../team/team.routes.js';
import { currentSession, describeSignedIn, type SignedIn } from './dashboard.access.js';
import { fieldWords, replyBody } from './dashboard.actions.js';
import { formBody, formFields, runsOperations } from './dashboard.forms.js';
import {
  assertFormPost,
  ensureFormCookie,
  FORM_COOKIE,
  formToken,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from './dashboard.session.js';
import type { FieldErrors } from './dashboard.views.js';

/** The declared operations the pages before a session (and signing out) run. */
export const ACCOUNT = {
  login: operation(sessionFeature, 'login'),
  logout: operation(sessionFeature, 'logout'),
  requestReset: operation(accountFeature, 'requestPasswordReset'),
  confirmReset: operation(accountFeature, 'confirmPasswordReset'),
  acceptInvite: operation(teamFeature, 'acceptInvite'),
  setupOpen: operation(setupFeature, 'getSetup'),
  completeSetup: operation(setupFeature, 'completeSetup'),
  requestSignUp: operation(setupFeature, 'requestSignUp'),
  confirmSignUp: operation(setupFeature, 'confirmSignUp'),
};

/** The form token of pages shown before a session exists: derived from the browser's form cookie. */
export const anonymousToken = (req: Request, res: Response) => formToken(ensureFormCookie(req, res));

/** A form shown before a session exists: posted from here, with the form cookie's token. */
export const checkAnonymousForm =
  (services: Services): RequestHandler =>
  (req, _res, next) => {
    assertFormPost(req, services, readCookie(req, FORM_COOKIE));
    next();
  };

/**
 * The browser's session, the page layer's own (its cookie), resolved where businessAuth resolves a
 * Bearer one: on the primary, which wrote it. Everything else the pages do is a declared operation.
 */
export function browserSessions({ db }: Pick<Services, 'db'>) {
  const { pool } = db;
  return {
    /** The live session a token names, or null. */
    live: (token: string | undefined): Promise<SessionRow | null> => liveBrowserSession(pool, token),
    /** The browser's signed-in user and their businesses, if its cookie names a live session. */
    current: (req: Request): Promise<SignedIn | null> => currentSession(pool, req),
    /** A live session's user and their businesses. */
    describe: (session: SessionRow, token: string) => describeSignedIn(pool, session.id, session.user_id, token),
  };
}

/**
 * Signs the browser in with a session token a declared operation answered (login), ending the
 * session it had, if any, as `POST /auth/logout` ends one.
 */
export async function signIn(services: Services, req: Request, res: Response, token: string): Promise<void> {
  const previous = await browserSessions(services).live(readCookie(req, SESSION_COOKIE));
  if (previous) await ACCOUNT.logout.invoke(services, previous, { req });
  setSessionCookie(req, res, token);
}

/** Runs `login` and signs the browser in with the session it answers. */
export async function logIn(services: Services, req: Request, res: Response, email: string, password: string) {
  const reply = await ACCOUNT.login.invoke(services, null, { req, body: { email, password } });
  const { token } = replyBody<{ token: string }>(reply);
  await signIn(services, req, res, token);
  return token;
}

/**
 * A refused password or token on a form: charged to the address's failure budget like the JSON
 * routes' refusals; past the budget the page is the 429 (thrown), else the form is shown again.
 */
export async function refusedCredential(req: Request): Promise<void> {
  const limited = await countCredentialFailure(req);
  if (limited) throw limited;
}

/** A refused form before a session: its status, its fields as sent, and words per field ('' for the form). */
export interface PublicRefusal {
  status: number;
  errors: FieldErrors;
}

/**
 * A refusal in words, by code: the fields it names (`<label key>.<code>`, else `validation.<code>`),
 * else the field a code is about (`INVALID_INVITE` is the token's). A refused credential costs the
 * address one failure first, as on the JSON routes; past the budget, the 429 is thrown. Anything
 * else is the error page.
 */
export async function refusalWords(
  req: Request,
  err: unknown,
  labels: Record<string, string>,
  fieldOfCode: Record<string, string> = {},
): Promise<PublicRefusal> {
  if (!(err instanceof HttpError)) throw err;
  const refused = refusalData(err);
  if (refused.credential) await refusedCredential(req);
  if (refused.errors.length > 0) return { status: refused.status, errors: fieldWords(refused.errors, labels) };
  const field = refused.code === undefined ? undefined : fieldOfCode[refused.code];
  if (field === undefined) throw err;
  const code = refused.code!.toLowerCase();
  return { status: refused.status, errors: fieldWords([{ field, code, message: code }], labels) };
}

/** A form shown before a session exists, that runs one declared operation. */
export interface PublicForm {
  path: string;
  /** What runs before the form's token is checked (the first run's 404 once it is over). */
  before?: RequestHandler[];
  runs: Route;
  body: (fields: Record<string, string>) => unknown;
  /** Catalogue keys of the fields' labels; a refusal's words are `<label key>.<code>`. */
  labels: Record<string, string>;
  /** The field a refusal without fields is about, by its code (a refused credential). */
  fieldOfCode?: Record<string, string>;
  /** The page layer's own work once the operation has answered (the cookie), and where to go: a 303. */
  done: (req: Request, res: Response, reply: Reply, fields: Record<string, string>) => Promise<string> | string;
  /** The form again, its fields marked. */
  again: (req: Request, res: Response, refused: PublicRefusal, fields: Record<string, string>) => void;
}

/** Registers a public form: its place in the failure budget while in flight, the form token, the operation. */
export function mountPublicForm(router: Router, services: Services, hold: RequestHandler, form: PublicForm): void {
  router.post(
    form.path,
    ...(form.before ?? []),
    hold,
    formBody,
    checkAnonymousForm(services),
    runsOperations(async (req, res) => {
      const fields = formFields(req);
      let reply: Reply;
      try {
        reply = await form.runs.invoke(services, null, { req, body: form.body(fields) });
      } catch (err) {
        return form.again(req, res, await refusalWords(req, err, form.labels, form.fieldOfCode), fields);
      }
      res.redirect(303, await form.done(req, res, reply, fields));
    }, form.runs),
  );
}
