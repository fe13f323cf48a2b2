import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { authorize } from '../auth/authorize.js';
import { cachedList } from '../http/cached-list.js';
import { operation } from '../http/operations.js';
import { envelopeOf, listRequest } from '../http/params.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { PRIORITIES, SENTIMENTS, SUGGESTION_STATUSES, uuid, VISIBILITIES, visibility } from '../shared/schemas.js';
import { toSuggestionDashboardResponse } from '../suggestions/suggestion.presenter.js';
import type { SuggestionDashboard } from '../suggestions/suggestion.responses.js';
import { suggestionBusinessRoutes } from '../suggestions/suggestion.routes.js';
import { listSuggestionsOffsetQuery } from '../suggestions/suggestion.schemas.js';
import { listSuggestions } from '../suggestions/suggestion.service.js';
import { memberFrame, memberOf, type SignedInMember } from './dashboard.access.js';
import { mayRun, mountForm, type FormAction, type PageCall } from './dashboard.actions.js';
import { formList, parseForm } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { renderView, type FieldErrors } from './dashboard.views.js';

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

/** Catalogue keys of the filters' labels, as a refused filter names them. */
const FILTER_LABELS: Record<string, string> = {
  status: 'app.inbox.field.status',
  priority: 'app.inbox.field.priority',
  sentiment: 'app.inbox.field.sentiment',
  tag: 'app.inbox.field.tag',
  q: 'app.inbox.field.q',
  limit: 'app.inbox.field.limit',
  offset: 'app.inbox.field.offset',
  location_id: 'app.inbox.field.location_id',
  visibility: 'app.inbox.field.visibility',
  review: 'app.inbox.field.review',
};
const filterLabels = () => Object.fromEntries(Object.entries(FILTER_LABELS).map(([name, key]) => [name, t(key)]));

/** The bulk form runs the declared bulk change: up to a page of suggestions (the list's largest `limit`). */
export const BULK = operation(suggestionBusinessRoutes, 'bulkUpdateBusinessSuggestions');
const bulkBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 110 });
const BULK_LABELS = {
  '': 'app.inbox.bulk.field.form',
  ids: 'app.inbox.bulk.field.ids',
  status: 'app.inbox.bulk.field.status',
  priority: 'app.inbox.bulk.field.priority',
  review: 'app.inbox.bulk.field.review',
};

/** What a post's redirect says happened: a catalogue key (`app.inbox.saved.<this>`). */
const SAVED = new Set(['changed', 'approved', 'rejected']);

/** How long ago, in the largest whole unit: what a person scanning a list wants. */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return minutes === 0 ? t('app.inbox.age.now') : t('app.inbox.age.minutes', { count: minutes });
  if (minutes < 1440) return t('app.inbox.age.hours', { count: Math.floor(minutes / 60) });
  return t('app.inbox.age.days', { count: Math.floor(minutes / 1440) });
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
  /** Approve and Reject for the selected: where approval is required, for who may decide. */
  canReview: boolean;
  /** The options in words: each filter's and the bulk form's. */
  words: Record<string, Record<string, string>>;
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
  const parsed = parseForm(listSuggestionsOffsetQuery, listValues, filterLabels());
  const own = parseForm(inboxFilters, { location_id, visibility: shown, review }, filterLabels());
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
    canPriority: mayRun(principal, BULK, ['priority']),
    canReview: settings.approvalRequired && mayRun(principal, BULK, ['review']),
    words: optionWords(),
    saved:
      typeof req.query.saved === 'string' && SAVED.has(req.query.saved)
        ? t(`app.inbox.saved.${req.query.saved}`)
        : undefined,
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

/** Each option's words, by the catalogue the suggestion's page uses for the same values. */
const optionWords = () => ({
  status: Object.fromEntries(SUGGESTION_STATUSES.map((v) => [v, t(`suggestion.status.${v}`)])),
  priority: Object.fromEntries(PRIORITIES.map((v) => [v, t(`suggestion.priority.${v}`)])),
  sentiment: Object.fromEntries(SENTIMENTS.map((v) => [v, t(`app.inbox.sentiment.${v}`)])),
  visibility: Object.fromEntries(VISIBILITIES.map((v) => [v, t(`suggestion.visibility.${v}`)])),
});

/**
 * The home is the inbox, read as the business list is: one statement for the session and the
 * page's frame, then the list's cache entry. The page as most views see it (no notice, no form
 * errors) is kept too, under the business's change number like the list (docs/caching.md), with
 * everything else it shows in its key: the session (whose form token it carries), the user, their
 * businesses, the business's settings and locations (read with the session on every request), the
 * filters and the minute (ages are shown to the minute). The overview's counts are on Analytics.
 */
export async function renderHome(
  services: Services,
  req: Request,
  res: Response,
  status: number,
  bulkErrors: FieldErrors = {},
): Promise<void> {
  const member = memberOf(res);
  authorize(member.principal, 'read');
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const shared = status === 200 && Object.keys(bulkErrors).length === 0 && req.query.saved === undefined;
  const key = `${member.principal.businessId} dashboard-home ${JSON.stringify([
    member.sessionId,
    member.principal.role,
    member.user,
    member.memberships,
    member.settings,
    inboxValues(req),
    minute,
  ])}`;
  const change = member.principal.changeNumber;
  let page = shared ? services.lists.get(key, change) : undefined;
  let pageStatus = 200;
  if (!page) {
    const inbox = await inboxView(services, member, req, bulkErrors, minute);
    pageStatus = status === 200 ? inbox.status : status;
    page = Buffer.from(renderView('home', { ...memberFrame(member, t('app.home.title'), 'home'), inbox: inbox.inbox }));
    if (shared && pageStatus === 200) services.lists.set(key, change, page);
  }
  res.status(pageStatus).type('html').send(page);
}

const home = ({ who }: PageCall) => `${BASE_PATH}/b/${who.principal.businessId}`;

/**
 * The inbox's bulk form: the declared bulk change (POST /businesses/:id/suggestions/bulk), which
 * changes every selected suggestion in one transaction, each as its own PATCH would (activity, event,
 * webhooks), and judges the fields as that route does: a member may change the status; a priority or a
 * review decision (Approve, Reject: the button pressed) needs an owner or admin.
 */
export const INBOX_FORMS: FormAction[] = [
  {
    path: '/b/:business_id/suggestions/bulk',
    runs: BULK,
    parser: bulkBody,
    // Approve or Reject is the button pressed: the decision alone, whatever the menus say.
    // Only the menus set are changes, as a PATCH gives only what it changes (a member's status alone).
    body: (fields, { req }) => {
      const chosen = fields.review ? { review: fields.review } : { status: fields.status, priority: fields.priority };
      return { ids: formList(req, 'id'), ...Object.fromEntries(Object.entries(chosen).filter(([, value]) => value)) };
    },
    labels: BULK_LABELS,
    done: (call) => {
      const review = (call.req.body as Record<string, unknown> | undefined)?.review;
      const saved = review === 'approve' ? 'approved' : review === 'reject' ? 'rejected' : 'changed';
      return `${home(call)}?saved=${saved}`;
    },
    again: ({ services, req, res }, refused) => renderHome(services, req, res, refused.status, refused.errors),
  },
];

export function inboxPages(services: Services): Router {
  const router = Router();
  for (const action of INBOX_FORMS) mountForm(router, services, action);
  return router;
}
