import type { Request, RequestHandler, Response, Router } from 'express';
import { HttpError, refusalData, type FieldError, type Refusal } from '../errors/http-error.js';
import { authorize, mayDo } from '../auth/authorize.js';
import type { Principal, UserPrincipal } from '../auth/principal.js';
import type pg from 'pg';
import type { Reply } from '../http/reply.js';
import type { Route, Services } from '../http/route.js';
import { hasMessage, t } from '../shared/messages.js';
import { memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { filesOf, formBody, formFields, multipartBody, runsOperations } from './dashboard.forms.js';
import { assertFormPost } from './dashboard.session.js';
import type { FieldErrors } from './dashboard.views.js';

/** A page being answered: what a form's callbacks are given. */
export interface PageCall {
  req: Request;
  res: Response;
  who: SignedInMember;
  services: Services;
  /** The files of a multipart form (FormAction.upload), by field name. */
  files: Record<string, Buffer>;
}

/** A refused form, to show again: the status, the fields as sent, and words per field ('' for the form). */
export interface Refused {
  status: number;
  values: Record<string, string>;
  errors: FieldErrors;
}

/**
 * A dashboard form: the declared operation it runs, and only what is the page's own. The operation
 * does everything a request to its route does (access, parsing, the id's 404, the handler with the
 * request's database, what follows the commit); the page turns the form's fields into its body,
 * redirects after the post, or shows the form again with its fields marked.
 */
export interface FormAction {
  /** The page's address below /app, naming the operation's parameters as its route does (`:id`). */
  path: string;
  /** The declared operation the form runs. */
  runs: Route;
  /** The operation's body from the form's fields; none when the operation takes none. */
  body?: (fields: Record<string, string>, call: PageCall) => unknown;
  /** The operation's query string from the form's fields (a location's `force`). */
  query?: (fields: Record<string, string>, call: PageCall) => Record<string, string>;
  /** The operation's path parameters, when the page's are not the route's (a suggestion's comments). */
  params?: (req: Request) => Record<string, string>;
  /**
   * The form's body parser, where the dashboard's small one does not fit (a changelog entry's 20,000
   * characters of Markdown and its 50 suggestion boxes, the inbox's page of checkboxes).
   */
  parser?: RequestHandler;
  /** Catalogue keys of the fields' labels: a refusal names the field by its label. */
  labels?: Record<string, string>;
  /** Where the browser goes once the operation has answered (a 303: reloading never posts twice). */
  done: (call: PageCall, reply: Reply) => string;
  /**
   * The answer is a page, not a redirect: only for what is shown once and never stored (a webhook's
   * signing secret), which a redirect would have to keep somewhere to show.
   */
  answer?: (call: PageCall, reply: Reply) => Promise<void>;
  /**
   * The form carries a file (`multipart/form-data`, the one way a browser without script sends one):
   * read up to `maxBytes`; the operation's own bound says the rest (dashboard.forms.ts, multipartBody).
   */
  upload?: { maxBytes: number };
  /** Shows the page again with the refused form. Without it, a refusal is the error page. */
  again?: (call: PageCall, refused: Refused) => Promise<void>;
}

/**
 * A refusal's fields in words from the catalogue, the first one per field: the field's own words for
 * the code where it has them (`<label key>.<code>`, "Choose at least one event type"), else
 * `validation.<code>` naming the field by its label.
 */
export function fieldWords(errors: readonly FieldError[], labels: Record<string, string> = {}): FieldErrors {
  const words: FieldErrors = {};
  for (const error of errors) {
    const field = error.field.split('.')[0] ?? '';
    if (words[field] !== undefined) continue;
    const labelKey = labels[field] ?? 'field.this';
    const own = `${labelKey}.${error.code}`;
    const key = hasMessage(own) ? own : `validation.${error.code}`;
    words[field] = t(hasMessage(key) ? key : 'validation.invalid', { ...error.params, label: t(labelKey) });
  }
  return words;
}

/**
 * Whether the viewer may run an operation, by the access its route declares (with `fields`, an
 * `update` judged by them): what a page offers is decided where the operation decides it.
 */
export function mayRun(principal: Principal, route: Route, fields: readonly string[] = []): boolean {
  return route.action === undefined || mayDo(principal, route.action, fields);
}

/**
 * Refuses a page that only leads to an operation (a confirmation before a delete) as the operation
 * refuses its caller: by the access its route declares.
 */
export function assertMayRun(principal: Principal, route: Route): void {
  if (route.action) authorize(principal, route.action);
}

/**
 * What a page shows beyond its operations' answers (an item's history), read as the business's reads
 * are: by a replica that has the business's last write, else the primary; never from the pool aside.
 */
export const pageRead = <T>(services: Services, principal: UserPrincipal, work: (db: pg.Pool) => Promise<T>) =>
  services.reads.read(principal, 'dashboard', work);

/** A JSON reply's body; a cached list answers its stored JSON text as media. */
export function replyBody<T>(reply: Reply): T {
  if (reply.kind === 'json') return reply.body as T;
  if (reply.kind === 'media') return JSON.parse(reply.body.toString()) as T;
  throw new Error(`An operation answered ${reply.kind} where a page expected JSON`);
}

/** The refusals a form shows beside its fields, as data: the ones that name them. Any other is the error page. */
export const refusalOf = (err: unknown): Refusal | undefined =>
  err instanceof HttpError && err.errors && err.errors.length > 0 ? refusalData(err) : undefined;

/** Registers a form's post on a page router: the member's session and form token, then the operation. */
export function mountForm(router: Router, services: Services, action: FormAction): void {
  const readBody = action.upload ? multipartBody(action.upload.maxBytes) : (action.parser ?? formBody);
  router.post(
    action.path,
    requireMember(services),
    readBody,
    runsOperations(async (req, res) => {
      const who = memberOf(res);
      assertFormPost(req, services, who.token);
      const call: PageCall = { req, res, who, services, files: filesOf(res) };
      const values = formFields(req);
      const input = {
        params: action.params ? action.params(req) : (req.params as Record<string, string>),
        body: await action.body?.(values, call),
        query: action.query?.(values, call),
      };
      let reply: Reply;
      try {
        reply = await action.runs.invoke(services, who.principal, input);
      } catch (err) {
        const refusal = action.again && refusalOf(err);
        if (!refusal || !action.again) throw err;
        const errors = fieldWords(refusal.errors, action.labels);
        return action.again(call, { status: refusal.status, values, errors });
      }
      if (action.answer) return action.answer(call, reply);
      res.redirect(303, action.done(call, reply));
    }, action.runs),
  );
}
