import type { Request, Response, Router } from 'express';
import type { SessionRow } from '../auth/credential.repository.js';
import { HttpError, refusalData, unauthorized } from '../errors/http-error.js';
import type { Reply } from '../http/reply.js';
import type { Route, Services } from '../http/route.js';
import { fieldWords, type Refused } from './dashboard.actions.js';
import { requireSession, signedInOf, type SignedIn } from './dashboard.access.js';
import { formBody, formFields, runsOperations } from './dashboard.forms.js';
import { assertFormPost } from './dashboard.session.js';
import { browserSessions, refusedCredential } from './dashboard.public-forms.js';

/** A signed-in user's own page being answered (the profile): no business, their session the caller. */
export interface UserPageCall {
  req: Request;
  res: Response;
  who: SignedIn;
  session: SessionRow;
}

/**
 * A form of the user's own pages: FormAction's counterpart for the operations whose caller is the
 * session itself (guard `session`, /auth/me...). The operation decides everything; the page keeps its
 * fields, its labels, where it goes after, and the form shown again with its fields marked.
 */
export interface UserFormAction {
  path: string;
  runs: Route;
  body?: (fields: Record<string, string>) => unknown;
  labels?: Record<string, string>;
  /** A refused credential (the current password) shows the form again with this field marked. */
  credential?: { field: string; words: string };
  done: (call: UserPageCall, reply: Reply) => string;
  again: (call: UserPageCall, refused: Refused) => Promise<void> | void;
}

/** The browser's session as the operations' `session` guard gives it; requireSession found it live. */
export async function sessionOf(services: Services, who: SignedIn): Promise<SessionRow> {
  const session = await browserSessions(services).live(who.token);
  if (!session) throw unauthorized();
  return session;
}

/** Registers a user form's post: the session and its form token, then the operation. */
export function mountUserForm(router: Router, services: Services, action: UserFormAction): void {
  router.post(
    action.path,
    requireSession(services),
    formBody,
    runsOperations(async (req, res) => {
      const who = signedInOf(res);
      assertFormPost(req, services, who.token);
      const call: UserPageCall = { req, res, who, session: await sessionOf(services, who) };
      const values = formFields(req);
      let reply: Reply;
      try {
        reply = await action.runs.invoke(services, call.session, {
          params: req.params as Record<string, string>,
          body: action.body?.(values),
          req,
        });
      } catch (err) {
        const refused = err instanceof HttpError ? refusalData(err) : undefined;
        if (refused?.credential && action.credential) {
          await refusedCredential(req);
          return action.again(call, {
            status: refused.status,
            values,
            errors: { [action.credential.field]: action.credential.words },
          });
        }
        if (!refused || refused.errors.length === 0) throw err;
        return action.again(call, {
          status: refused.status,
          values,
          errors: fieldWords(refused.errors, action.labels),
        });
      }
      res.redirect(303, action.done(call, reply));
    }, action.runs),
  );
}
