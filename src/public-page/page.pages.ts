import { randomBytes } from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { HttpError, serviceUnavailable } from '../errors/http-error.js';
import { isUnavailable } from '../http/error-handler.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import type { CodeTarget } from './page.repository.js';
import { toPublicSuggestion } from './page.presenter.js';
import { feedbackForm, followForm, pageQuery, qrCodeParam, voteForm } from './page.schemas.js';
import { addFollowLinkPages } from './page.follow.js';
import { addChangelogPages } from './page.changelog.js';
import { addRoadmapPage } from './page.roadmap.js';
import { addBrandFiles, brandKey, brandOf } from './page.brand.js';
import {
  assertHumanPost,
  assertSameOrigin,
  type AcceptedForm,
  ensureVoterToken,
  issueFormToken,
  readVoterToken,
  isPostedToken,
  postedToken,
} from './page.security.js';
import {
  findShownSuggestion,
  followSending,
  listPublicSuggestions,
  openCode,
  PAGE_SIZE,
  postFeedback,
  setPageVote,
  shownPlaceOf,
  windowKey,
} from './page.service.js';
import { pagePolicy } from '../http/pages.js';
import { t } from '../shared/messages.js';
import { pageLocale, rememberLanguage } from './page.locale.js';
import { SUGGESTION_CONTENT_MAX } from '../suggestions/suggestion.columns.js';
import { CUSTOMER_NAME_MAX } from '../suggestions/suggestion.schemas.js';
import { ASSETS, renderLanding, renderMessage, renderPage, type PageView } from './page.views.js';
import { followSuggestion } from '../follows/follow.service.js';

type Budget = (kind: 'read' | 'write', answer: 'json' | 'html') => RequestHandler;

const policy = pagePolicy("'self'");

/** The page's forms: small urlencoded bodies, no nesting. */
const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

const codeOf = (req: Request): string => {
  const parsed = qrCodeParam.safeParse(req.params.code);
  if (!parsed.success) throw new HttpError(404, 'Feedback page not found', 'NOT_FOUND');
  return parsed.data;
};

/** Empty optional fields of a form mean "not given", as in the API. */
function formFields(body: unknown): Record<string, unknown> {
  const fields = { ...((body ?? {}) as Record<string, unknown>) };
  for (const name of ['customer_name', 'customer_email', 'website']) if (fields[name] === '') delete fields[name];
  return fields;
}

/** The language a visitor reads a page in (page.locale.ts): every word below follows it. */
const localeOf = (req: Request, target?: CodeTarget): string => pageLocale(req, target?.default_language);

/** What a customer is told when a field is wrong: in words, naming the field, from the catalogue. */
function formError(error: z.ZodError, locale: string): string {
  const field = error.issues[0]?.path[0];
  if (field === 'content') return t('page.form.error.content', { max: SUGGESTION_CONTENT_MAX }, locale);
  if (field === 'customer_email') return t('page.form.error.customer_email', undefined, locale);
  if (field === 'customer_name') return t('page.form.error.customer_name', { max: CUSTOMER_NAME_MAX }, locale);
  return t('page.form.error.not_accepted', undefined, locale);
}

interface PageState {
  sort: PageView['sort'];
  offset: number;
  thanks?: 'shown' | 'review';
  thankedId?: string;
  /** After a post awaiting review, the proof that lets this browser follow it (thankedId names it). */
  posted?: string;
  followed?: boolean;
  /** The suggestion just voted for, to offer its follow. */
  voted?: string;
  form?: Partial<PageView['form']>;
}

/**
 * Where the form token goes in a kept page: each view gets a token of its own (its time is the form's
 * start), spliced in as it is sent. Random per process, so no text on the page can contain it.
 */
const TOKEN_SLOT = Buffer.from(`form-token-${randomBytes(16).toString('hex')}`);

/**
 * Where the slot is in each rendered page (-1: none), found once per page rather than searched for in
 * every request that sends it; a kept page's bytes never change, and the entry goes with the page.
 */
const slotAt = new WeakMap<Buffer, number>();

/** What `res.type('html')` sets, without its lookup of the type in every request. */
const HTML = 'text/html; charset=utf-8';

/** A token is digits, a dot and base64url (page.security.ts): nothing in it needs escaping in HTML. */
function sendWithToken(res: Response, status: number, page: Buffer, token: string) {
  let at = slotAt.get(page);
  if (at === undefined) {
    at = page.indexOf(TOKEN_SLOT);
    slotAt.set(page, at);
  }
  res.status(status).setHeader('Content-Type', HTML);
  if (at < 0) return void res.send(page);
  const body = Buffer.allocUnsafe(page.length - TOKEN_SLOT.length + token.length);
  page.copy(body, 0, 0, at);
  const after = at + body.write(token, at, 'latin1');
  page.copy(body, after, at + TOKEN_SLOT.length);
  res.send(body);
}

/**
 * The page as a visitor first sees it (no thank-you, no form error, none of its suggestions voted for
 * by this browser) is the same for everyone: it is kept rendered in the list cache under the
 * business's change number, like its window, and named by everything else it shows (the code, the
 * business's and the location's names, which are not counted as changes).
 */
async function sendPage(
  req: Request,
  res: Response,
  services: Services,
  code: string,
  target: CodeTarget,
  state: PageState,
  status = 200,
) {
  const pool = services.db.pool;
  const locale = localeOf(req, target);
  rememberLanguage(req, res);
  const voter = readVoterToken(req);
  const token = issueFormToken(services.publicPage, code);
  const shared = !state.thanks && !state.form && !state.followed && !state.voted;
  const brand = brandOf(target);
  const key = `public-page-html ${locale} ${code} ${windowKey(target, state.sort, state.offset)} ${JSON.stringify([
    target.business_name,
    target.location_name,
    brandKey(brand),
  ])}`;
  const kept = shared ? services.lists.get(key, target.change_number) : undefined;
  if (kept && !voter) return sendWithToken(res, status, kept, token);

  const reader = { businessId: target.business_id, changeNumber: target.change_number };
  const { items, total } = await services.reads.read(reader, 'page', (from) =>
    listPublicSuggestions(from, services.lists, target, state.sort, state.offset, voter),
  );
  const votedNone = items.every((item) => !item.voted);
  if (kept && votedNone) return sendWithToken(res, status, kept, token);
  const thanked = state.thankedId ? await findShownSuggestion(pool, target, state.thankedId, voter) : null;
  const voted = state.voted ? await findShownSuggestion(pool, target, state.voted, voter) : null;
  const next = state.offset + PAGE_SIZE;
  const page = Buffer.from(
    renderPage(
      {
        code,
        business_name: target.business_name,
        location_name: target.location_name,
        sort: state.sort,
        offset: state.offset,
        next_offset: next < total ? next : null,
        items: items.map((item) => toPublicSuggestion(item, locale)),
        thanks: state.thanks,
        thanked: thanked ? toPublicSuggestion(thanked, locale) : null,
        ownFollow:
          state.thanks === 'review' && state.thankedId && state.posted
            ? { id: state.thankedId, posted: state.posted }
            : null,
        followed: state.followed,
        voted: voted ? toPublicSuggestion(voted, locale) : null,
        roadmap: target.roadmap_enabled,
        brand,
        form: { token: TOKEN_SLOT.toString(), ...state.form },
      },
      locale,
    ),
  );
  if (shared && votedNone) services.lists.set(key, target.change_number, page);
  sendWithToken(res, status, page, token);
}

/** What a page's query means when there is none: the defaults `pageQuery` gives an empty one. */
const NO_QUERY = Object.freeze(pageQuery.parse({}));

/** The statuses an error page has words for (`page.error.<status>.*`); any other says `page.error.other.*`. */
const STATUS_WORDS = new Set([400, 403, 404, 410, 429, 503]);

/**
 * Refusals that need their own words for a visitor, by code (`page.error.<code>.*`); they say when to
 * come back themselves, so no Retry-After line is added.
 */
const CODE_WORDS = new Set(['BAD_EMAIL', 'POSTED_TOKEN_USED', 'FOLLOW_LIMIT', 'VOTE_LIMIT']);
/** Codes whose words stand alone but whose Retry-After is still worth telling. */
const CODE_WORDS_WITH_RETRY = new Set(['LINK_INVALID', 'LINK_EXPIRED']);

/** The catalogue's words for an error page: by the error's code, else its status; never its message. */
function errorWords(status: number, code: string | undefined): { prefix: string; retry: boolean } {
  if (code && CODE_WORDS.has(code)) return { prefix: `page.error.${code}`, retry: false };
  if (code && CODE_WORDS_WITH_RETRY.has(code)) return { prefix: `page.error.${code}`, retry: true };
  return { prefix: `page.error.${STATUS_WORDS.has(status) ? status : 'other'}`, retry: true };
}

/** The HttpError an error stands for on a page: a database that cannot be reached is a 503, as in the API. */
function pageError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (isUnavailable(err)) return serviceUnavailable();
  return undefined;
}

/**
 * Errors on the pages are pages too, with the right status (a 404, the inactive code's 410, a 429
 * or a 503 while the database cannot be reached, both with Retry-After); a client that asks for JSON
 * gets the service's JSON errors instead.
 */
const pageErrors: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (req.accepts(['html', 'json']) === 'json' || res.headersSent) return next(err);
  const httpError = pageError(err);
  const status = httpError
    ? httpError.statusCode
    : typeof (err as { status?: unknown }).status === 'number' && (err as { status: number }).status < 500
      ? 400
      : 500;
  if (status === 503 && !(err instanceof HttpError)) req.log.warn({ err }, 'database unavailable');
  else if (status >= 500) req.log.error({ err }, 'public page error');
  if (httpError) res.set(httpError.headers);
  const locale = localeOf(req);
  res.vary('Accept-Language').vary('Cookie');
  const { prefix, retry } = errorWords(status, httpError?.code);
  const heading = t(`${prefix}.heading`, undefined, locale);
  const message = t(`${prefix}.message`, undefined, locale);
  res
    .status(status)
    .type('html')
    .send(renderMessage(heading, message, retry ? res.get('Retry-After') : undefined, locale));
};

/**
 * The HTML pages: the landing page at `/`, and the feedback page behind every QR code at `/f/<code>`
 * with its two forms (feedback, and votes for browsers without JavaScript), which post and redirect.
 * Pages, not API operations: like /docs they are not in the OpenAPI document; their JSON side is.
 */
export function publicPages(services: Services, budget: Budget): Router {
  const router = Router();
  const read = budget('read', 'html');
  const write = budget('write', 'html');
  const pool = services.db.pool;
  /** Mounted before the app's own check, so that a page says "starting" as a page too. */
  const ready: RequestHandler = (_req, _res, next) => {
    if (!services.isReady()) throw serviceUnavailable('Service is starting, retry shortly');
    next();
  };

  for (const { path, body, type } of ASSETS) {
    router.get(path, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=31536000, immutable').type(type).send(body);
    });
  }

  router.get('/', policy, read, (req, res) => {
    rememberLanguage(req, res);
    res.type('html').send(renderLanding(localeOf(req)));
  });

  router.get('/f/:code', policy, read, ready, async (req, res) => {
    const code = codeOf(req);
    const target = await openCode(pool, code);
    // Most visits (a QR code's link) carry no query: its meaning is known without parsing one.
    const query = req.url.includes('?') ? pageQuery.parse(req.query) : NO_QUERY;
    // A HEAD (a link checker, a preview) opens nothing: only a GET of the page counts as a scan.
    if (!query.thanks && req.method === 'GET')
      services.publicPage.countScan(target.qr_code_id, target.business_id, new Date(services.publicPage.now()));
    await sendPage(req, res, services, code, target, {
      sort: query.sort,
      offset: query.offset,
      thanks: query.thanks,
      thankedId: query.s,
      posted: query.s && isPostedToken(services.publicPage, code, query.s, query.posted) ? query.posted : undefined,
      followed: query.followed === '1',
      voted: query.voted,
    });
  });

  router.post('/f/:code', policy, write, ready, formBody, async (req, res) => {
    assertSameOrigin(req, services);
    const code = codeOf(req);
    const target = await openCode(pool, code);
    const fields = formFields(req.body);
    const values = {
      content: typeof fields.content === 'string' ? fields.content : '',
      customer_name: typeof fields.customer_name === 'string' ? fields.customer_name : '',
      customer_email: typeof fields.customer_email === 'string' ? fields.customer_email : '',
    };
    const parsed = feedbackForm.safeParse(fields);
    const refuse = (error: string) =>
      sendPage(req, res, services, code, target, { sort: 'trending', offset: 0, form: { ...values, error } }, 400);
    if (!parsed.success) return refuse(formError(parsed.error, localeOf(req, target)));
    let form: AcceptedForm;
    try {
      form = assertHumanPost(services.publicPage, code, parsed.data);
    } catch (err) {
      // Every refusal of the form token (too soon, too old, forged, the honeypot filled) has one answer.
      if (err instanceof HttpError) return refuse(t('page.form.error.not_accepted', undefined, localeOf(req, target)));
      throw err;
    }
    // A form sent again (a double click, a reload of the post) stores nothing and thanks as the first did.
    const posted = await postFeedback(pool, target, parsed.data, form, new Date(services.publicPage.now()));
    const thanks = posted.awaitingReview
      ? `thanks=review&s=${posted.id}&posted=${postedToken(services.publicPage, code, posted.id)}`
      : `thanks=shown&s=${posted.id}`;
    res.redirect(303, `/f/${code}?${thanks}`);
  });

  // A suggestion's own link: the page at its place, or at the suggestion it is merged into.
  router.get('/f/:code/s/:id', policy, read, ready, async (req, res) => {
    const code = codeOf(req);
    const target = await openCode(pool, code);
    const place = await shownPlaceOf(pool, target, idParam(req.params.id, 'Suggestion'));
    if (!place) throw new HttpError(404, 'This suggestion is not on the page', 'NOT_FOUND');
    res.redirect(303, `/f/${code}#s-${place}`);
  });

  router.post('/f/:code/votes/:id', policy, write, ready, formBody, async (req, res) => {
    assertSameOrigin(req, services);
    const code = codeOf(req);
    const target = await openCode(pool, code);
    const id = idParam(req.params.id, 'Suggestion');
    const form = voteForm.safeParse(req.body ?? {});
    if (!form.success) throw new HttpError(400, 'Bad vote form', 'BAD_REQUEST');
    // A form of a page shown before a merge: the customer is taken to where the suggestion went.
    const place = await shownPlaceOf(pool, target, id);
    if (place && place !== id) return res.redirect(303, `/f/${code}#s-${place}`);
    const voter = { token: ensureVoterToken(req, res), address: req.ip ?? '' };
    await setPageVote(pool, target, id, voter, form.data.action === 'add', services.publicPage.votes);
    if (form.data.back === 'roadmap') return res.redirect(303, `/f/${code}/roadmap#s-${id}`);
    const back = `sort=${form.data.sort}${form.data.offset > 0 ? `&offset=${form.data.offset}` : ''}`;
    // After a vote, the page offers to follow what was voted for (the same double opt-in form).
    res.redirect(303, `/f/${code}?${back}${form.data.action === 'add' ? `&voted=${id}` : ''}#s-${id}`);
  });

  router.post('/f/:code/follow/:id', policy, write, ready, formBody, async (req, res) => {
    assertSameOrigin(req, services);
    const code = codeOf(req);
    const target = await openCode(pool, code);
    const id = idParam(req.params.id, 'Suggestion');
    const form = followForm.safeParse(req.body ?? {});
    if (!form.success) throw new HttpError(400, 'That email address does not look right', 'BAD_EMAIL');
    const place = await shownPlaceOf(pool, target, id);
    if (place && place !== id) return res.redirect(303, `/f/${code}#s-${place}`);
    const ownPost = isPostedToken(services.publicPage, code, id, form.data.posted);
    const followedFrom = { ...target, code };
    await followSuggestion(pool, followSending(services), followedFrom, {
      suggestionId: id,
      email: form.data.email,
      ownPost,
      locale: localeOf(req, target),
    });
    const back = `sort=${form.data.sort}${form.data.offset > 0 ? `&offset=${form.data.offset}` : ''}`;
    res.redirect(303, `/f/${code}?followed=1&${back}#s-${id}`);
  });

  addBrandFiles(router, services, read);
  addFollowLinkPages(router, services, { budget: read, policy, formBody, localeOf });
  addChangelogPages(router, services, { budget: read, policy, localeOf });
  addRoadmapPage(router, services, { budget: read, policy, ready, localeOf });

  router.use(pageErrors);
  return router;
}
