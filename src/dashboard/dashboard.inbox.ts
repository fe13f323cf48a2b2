import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { authorize } from '../auth/authorize.js';
import { badRequest, HttpError } from '../errors/http-error.js';
import { cachedList } from '../http/cached-list.js';
import { envelopeOf, listRequest } from '../http/params.js';
import type { Services } from '../http/route.js';
import { PRIORITIES, SENTIMENTS, SUGGESTION_STATUSES, uuid, VISIBILITIES, visibility } from '../shared/schemas.js';
import { toSuggestionDashboardResponse } from '../suggestions/suggestion.presenter.js';
import type { SuggestionDashboard } from '../suggestions/suggestion.responses.js';
import { listSuggestionsOffsetQuery, updateSuggestionBody } from '../suggestions/suggestion.schemas.js';
import { changeSuggestion, listSuggestions } from '../suggestions/suggestion.service.js';
import { allowed, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formFields, formList, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import type { FieldErrors } from './dashboard.views.js';

/** The inbox's filters and paging: the business family's list parameters, by the same names. */
const QUERY_FIELDS = ['status', 'priority', 'sentiment', 'tag', 'q', 'limit', 'offset'] as const;
/** The inbox's own filters, beyond the list's API: the listing filters on the rows for them. */
const INBOX_FIELDS = ['location_id', 'visibility', 'review'] as const;
type InboxValues = Partial<Record<(typeof QUERY_FIELDS)[number] | (typeof INBOX_FIELDS)[number], string>>;

const inboxFilters = z.strictObject({
  location_id: uuid.optional(),
  visibility: visibility.optional(),
  /** Awaiting review: public suggestions held until approved (Approval required). */
  review: z.enum(['pending']).optional(),
});

const FILTER_LABELS: Record<string, string> = {
  status: 'The status',
  priority: 'The priority',
  sentiment: 'The sentiment',
  tag: 'The tag',
  q: 'The search',
  limit: 'The page size',
  offset: 'The position',
  location_id: 'The location',
  visibility: 'The visibility',
  review: 'The review',
};

/** The bulk form: up to a page of suggestions (the list's largest `limit`), and what to change. */
const bulkBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 110 });
const BULK_MAX = 100;

const SAVED: Record<string, string> = { changed: 'The selected suggestions are changed.' };

/** How long ago, in the largest whole unit: what a person scanning a list wants. */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  const [count, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 1440
        ? [Math.floor(minutes / 60), 'hour']
        : [Math.floor(minutes / 1440), 'day'];
  if (unit === 'minute' && count === 0) return 'just now';
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** The query's values the inbox knows, as typed (an empty one is no filter). */
export function inboxValues(req: Request): InboxValues {
  const values: InboxValues = {};
  for (const name of [...QUERY_FIELDS, ...INBOX_FIELDS]) {
    const value = req.query[name];
    if (typeof value === 'string' && value.trim() !== '') values[name] = value;
  }
  return values;
}

export interface InboxView {
  values: InboxValues;
  errors: FieldErrors;
  rows: (SuggestionDashboard & { age: string })[];
  total: number;
  limit: number;
  offset: number;
  previous?: string;
  next?: string;
  statuses: readonly string[];
  priorities: readonly string[];
  sentiments: readonly string[];
  canPriority: boolean;
  locations: { id: string; name: string }[];
  /** The business's tag names, to filter by one (docs/tags.md). */
  tags: string[];
  visibilities: readonly string[];
  offerReview: boolean;
  saved?: string;
  bulkErrors: FieldErrors;
}

/** The address of another window of the same filtered list. */
function pageHref(businessId: string, values: InboxValues, offset: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (name !== 'offset' && value) params.set(name, value);
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return `${BASE_PATH}/b/${businessId}${search ? `?${search}` : ''}`;
}

/**
 * The inbox: the business family's suggestion list with the same parameters, read through the same
 * cache entry as GET /businesses/:id/suggestions (same key, same build), so never staler than the API.
 * A malformed filter is the 400 of that route, shown with its field marked. The inbox's own filters
 * (location, visibility, awaiting review) go to the same listing, under their own cache key.
 */
export async function inboxView(
  services: Services,
  member: SignedInMember,
  req: Request,
  bulkErrors: FieldErrors = {},
  now = Date.now(),
): Promise<{ status: number; inbox: InboxView }> {
  const { principal } = member;
  authorize(principal, 'read');
  const values = inboxValues(req);
  const { location_id, visibility: shown, review, ...listValues } = values;
  const parsed = parseForm(listSuggestionsOffsetQuery, listValues, FILTER_LABELS);
  const own = parseForm(inboxFilters, { location_id, visibility: shown, review }, FILTER_LABELS);
  const { settings } = member;
  const base = {
    values,
    locations: settings.locations,
    tags: settings.tags,
    visibilities: VISIBILITIES,
    // The review filter is offered where reviews happen, and kept while it is set.
    offerReview: settings.approvalRequired || review !== undefined,
    statuses: SUGGESTION_STATUSES,
    priorities: PRIORITIES,
    sentiments: SENTIMENTS,
    canPriority: allowed(principal, 'write'),
    saved: typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined,
    bulkErrors,
  };
  if (!parsed.ok || !own.ok) {
    const errors = { ...(parsed.ok ? {} : parsed.errors), ...(own.ok ? {} : own.errors) };
    return { status: 400, inbox: { ...base, errors, rows: [], total: 0, limit: 0, offset: 0 } };
  }
  const query = parsed.data;
  const extra = { locationId: own.data.location_id, visibility: own.data.visibility, reviewState: own.data.review };
  const hasExtra = Object.values(extra).some((value) => value !== undefined);
  // Without the inbox's own filters, the very entry GET /businesses/:id/suggestions keeps for this query.
  const key = `business suggestions ${JSON.stringify(query)}${hasExtra ? ` inbox ${JSON.stringify(extra)}` : ''}`;
  const reply = await cachedList(services.lists, principal, key, async () => {
    const { page, filter } = listRequest(query);
    const result = await services.reads.read(principal, 'dashboard', (pool) =>
      listSuggestions(pool, principal.businessId, { ...filter, ...extra }, page),
    );
    return envelopeOf(query, result.rows.map(toSuggestionDashboardResponse), result.total);
  });
  const body = (
    reply.kind === 'media' ? JSON.parse(reply.body.toString()) : reply.kind === 'json' ? reply.body : null
  ) as { data: SuggestionDashboard[]; total: number; limit: number; offset: number };
  const { limit, offset, total } = body;
  const businessId = principal.businessId;
  return {
    status: 200,
    inbox: {
      ...base,
      errors: {},
      rows: body.data.map((row) => ({ ...row, age: age(row.created_at, now) })),
      total,
      limit,
      offset,
      previous: offset > 0 ? pageHref(businessId, values, Math.max(0, offset - limit)) : undefined,
      next: offset + limit < total ? pageHref(businessId, values, offset + limit) : undefined,
    },
  };
}

/**
 * The inbox's bulk form: each selected suggestion changed through changeSuggestion, one by one, so
 * each change records its activity, event and webhooks exactly as PATCH /businesses/:id/suggestions/:id
 * does; authorize() judges the fields as that route does (`update`: a member may change the status).
 */
export function inboxPages(
  services: Services,
  renderHome: (req: Request, res: Response, status: number, bulkErrors: FieldErrors) => Promise<void>,
): Router {
  const router = Router();
  const pool = services.db.pool;

  router.post('/b/:business_id/suggestions/bulk', requireMember(services), bulkBody, async (req, res) => {
    const who = memberOf(res);
    const fields = formFields(req);
    const changes = { status: fields.status || undefined, priority: fields.priority || undefined };
    authorize(
      who.principal,
      'update',
      Object.keys(changes).filter((key) => changes[key as keyof typeof changes] !== undefined),
    );
    assertFormPost(req, services, who.token);
    const ids = formList(req, 'id');
    const errors: FieldErrors = {};
    const form = parseForm(updateSuggestionBody, changes, { status: 'The new status', priority: 'The new priority' });
    if (!form.ok)
      Object.assign(
        errors,
        form.errors.status || form.errors.priority ? form.errors : { status: 'Choose a new status or a new priority.' },
      );
    if (ids.length === 0) errors.id = 'Select at least one suggestion.';
    else if (ids.length > BULK_MAX) errors.id = `Select at most ${BULK_MAX} suggestions at once.`;
    else if (ids.some((id) => !uuid.safeParse(id).success)) errors.id = 'A selected suggestion is not one of the list.';
    if (!form.ok || Object.keys(errors).length > 0) return renderHome(req, res, 400, errors);
    for (const id of new Set(ids.map((value) => value.toLowerCase()))) {
      try {
        await changeSuggestion(pool, who.principal, id, form.data);
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 404)
          throw badRequest('A selected suggestion no longer exists: reload the inbox.');
        throw err;
      }
    }
    res.redirect(303, `${BASE_PATH}/b/${who.principal.businessId}?saved=changed`);
  });

  return router;
}
