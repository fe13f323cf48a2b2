import { Router, type Request, type Response } from 'express';
import { entityHistory } from '../analytics/analytics.service.js';
import { commentFeature } from '../comments/comment.routes.js';
import type { Comment } from '../comments/comment.responses.js';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import type { Issue } from '../issues/issue.responses.js';
import { issueBusinessRoutes } from '../issues/issue.routes.js';
import { hasMessage, t } from '../shared/messages.js';
import { ISSUE_STATUSES, PRIORITIES } from '../shared/schemas.js';
import { teamFeature } from '../team/team.routes.js';
import type { Team } from '../team/team.responses.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import {
  fieldWords,
  mayRun,
  mountForm,
  pageRead,
  refusalOf,
  replyBody,
  type FormAction,
  type PageCall,
  type Refused,
} from './dashboard.actions.js';
import { formList } from './dashboard.forms.js';
import { age } from './dashboard.inbox.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const ISSUES = {
  list: operation(issueBusinessRoutes, 'listBusinessIssues'),
  get: operation(issueBusinessRoutes, 'getBusinessIssue'),
  create: operation(issueBusinessRoutes, 'createBusinessIssue'),
  change: operation(issueBusinessRoutes, 'updateBusinessIssue'),
  comments: operation(commentFeature, 'listBusinessIssueComments'),
  comment: operation(commentFeature, 'addBusinessIssueComment'),
};
const TEAM = operation(teamFeature, 'getTeam');

const QUERY_FIELDS = ['status', 'priority', 'assignee_id', 'q', 'limit', 'offset'] as const;
type IssueValues = Partial<Record<(typeof QUERY_FIELDS)[number], string>>;

/** Catalogue keys of the fields' labels, the list's filters and the forms' alike. */
const LABELS = {
  title: 'issues.field.title',
  description: 'issues.field.description',
  status: 'issues.field.status',
  priority: 'issues.field.priority',
  assignee_id: 'issues.field.assignee',
  customer_name: 'issues.field.customer_name',
  customer_email: 'issues.field.customer_email',
  tags: 'issues.field.tags',
  q: 'issues.field.q',
  limit: 'issues.field.limit',
  offset: 'issues.field.offset',
  content: 'issues.field.comment',
};

/** What a post's redirect says happened: a catalogue key (`issues.saved.<this>`). */
const SAVED = new Set(['created', 'changed', 'commented']);

/** The words of a status or a priority, as the forms and the lists show them. */
const valueWords = (statuses: readonly string[], kind: 'status' | 'priority') =>
  statuses.map((value) => ({ value, text: t(`issues.${kind}.${value}`) }));

/** The query's values the list knows, as typed (an empty one is no filter). */
function listValues(req: Request): IssueValues {
  const values: IssueValues = {};
  for (const name of QUERY_FIELDS) {
    const value = req.query[name];
    if (typeof value === 'string' && value.trim() !== '') values[name] = value;
  }
  return values;
}

function pageHref(businessId: string, values: IssueValues, offset: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (name !== 'offset' && value) params.set(name, value);
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return `${BASE_PATH}/b/${businessId}/issues${search ? `?${search}` : ''}`;
}

/** The business's members by id, with the name a page shows for each. */
async function membersOf(services: Services, who: SignedInMember) {
  const team = replyBody<Team>(await TEAM.invoke(services, who.principal));
  const members = team.members.map((m) => ({ id: m.user_id, name: m.name ?? m.email }));
  const names = new Map(members.map((m) => [m.id, m.name]));
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? t('issues.former_member')) : null);
  return { members, nameOf };
}

const EMPTY_ISSUE = { title: '', description: '', priority: 'medium', assignee_id: '', customer_name: '' };

interface ListState {
  status?: number;
  creating?: { values: Record<string, string>; tags: string[]; errors: FieldErrors };
}

/**
 * Issues: the business family's list (GET /businesses/:id/issues, its parameters and its cache
 * entry) with the form that opens one (POST .../issues), and an issue's page whose forms are its
 * JSON routes': PATCH (`update`: a member may change the status; assigning and the priority need
 * owner or admin), whose state rules (assigning an open issue, resolved_at) are the API's, and
 * POST .../comments. Access is the operations' own.
 */
async function showList(services: Services, req: Request, res: Response, who: SignedInMember, state: ListState) {
  const { businessId } = who.principal;
  const values = listValues(req);
  const { members, nameOf } = await membersOf(services, who);
  const frame = {
    ...memberFrame(who, t('issues.title'), 'issues'),
    values,
    statuses: valueWords(ISSUE_STATUSES, 'status'),
    priorities: valueWords(PRIORITIES, 'priority'),
    members,
    canCreate: mayRun(who.principal, ISSUES.create),
    tags: who.settings.tags,
    creating: state.creating ?? { values: EMPTY_ISSUE, tags: [], errors: {} },
  };
  let body: { data: Issue[]; total: number; limit: number; offset: number };
  try {
    body = replyBody(await ISSUES.list.invoke(services, who.principal, { query: values }));
  } catch (err) {
    const refusal = refusalOf(err);
    if (!refusal) throw err;
    const errors = fieldWords(refusal.errors, LABELS);
    return sendView(res, refusal.status, 'issues', { ...frame, errors, rows: [], total: 0, offset: 0 });
  }
  const now = Date.now();
  const { limit, offset, total } = body;
  sendView(res, state.status ?? 200, 'issues', {
    ...frame,
    errors: {},
    rows: body.data.map((issue) => ({
      ...issue,
      statusText: t(`issues.status.${issue.status}`),
      priorityText: t(`issues.priority.${issue.priority}`),
      assignee: nameOf(issue.assignee_id),
      age: age(issue.created_at, now),
    })),
    total,
    offset,
    previous: offset > 0 ? pageHref(businessId, values, Math.max(0, offset - limit)) : undefined,
    next: offset + limit < total ? pageHref(businessId, values, offset + limit) : undefined,
  });
}

interface IssuePageState {
  status?: number;
  changing?: { errors: FieldErrors; formError?: string };
  commenting?: { value: string; errors: FieldErrors };
  saved?: string;
}

/** What an issue's history says of an entry, as people read it. */
const historyWhat = (type: string) => (hasMessage(`issues.history.${type}`) ? t(`issues.history.${type}`) : type);

async function showIssue(services: Services, res: Response, who: SignedInMember, id: string, state: IssuePageState) {
  const { businessId } = who.principal;
  const issue = replyBody<Issue>(await ISSUES.get.invoke(services, who.principal, { params: { id } }));
  const [{ members, nameOf }, comments, history] = await Promise.all([
    membersOf(services, who),
    ISSUES.comments.invoke(services, who.principal, { params: { id }, query: { order: 'asc', limit: '100' } }),
    pageRead(services, who.principal, (db) => entityHistory(db, businessId, 'issue', id)),
  ]);
  const listed = replyBody<{ data: Comment[]; total: number }>(comments);
  sendView(res, state.status ?? 200, 'issue', {
    ...memberFrame(who, t('issues.issue.title'), 'issues'),
    issue: {
      ...issue,
      statusText: t(`issues.status.${issue.status}`),
      priorityText: t(`issues.priority.${issue.priority}`),
      assignee: nameOf(issue.assignee_id),
      created: when(new Date(issue.created_at)),
      resolved: issue.resolved_at ? when(new Date(issue.resolved_at)) : null,
    },
    members,
    statuses: valueWords(ISSUE_STATUSES, 'status'),
    priorities: valueWords(PRIORITIES, 'priority'),
    history: history.map((entry) => ({
      what: historyWhat(entry.type),
      who:
        entry.actor_name ??
        (entry.actor_api_key_name ? t('issues.history.api_key', { name: entry.actor_api_key_name }) : null),
      when: when(entry.created_at),
    })),
    comments: listed.data.map((c) => ({ ...c, when: when(new Date(c.created_at)) })),
    commentTotal: listed.total,
    // What the change form offers is what its operation would accept of this viewer.
    canWrite: mayRun(who.principal, ISSUES.change, ['priority', 'assignee_id']),
    canStatus: mayRun(who.principal, ISSUES.change, ['status']),
    canComment: mayRun(who.principal, ISSUES.comment),
    changing: state.changing ?? { errors: {} },
    commenting: state.commenting ?? { value: '', errors: {} },
    saved: state.saved,
  });
}

const list = '/b/:business_id/issues';
const one = `${list}/:id`;
const pageOf = (who: SignedInMember, id: string, saved: string, anchor = '') =>
  `${BASE_PATH}/b/${who.principal.businessId}/issues/${id}?saved=${saved}${anchor}`;
const thisIssue = (req: Request) => String(req.params.id).toLowerCase();

/** Only what the form moves is a change, as a PATCH gives only what it changes. */
async function changedFields(sent: Record<string, string>, { services, who, req }: PageCall) {
  const before = replyBody<Issue>(await ISSUES.get.invoke(services, who.principal, { params: { id: thisIssue(req) } }));
  const fields: Record<string, string | null> = {};
  if (sent.status !== undefined && sent.status !== before.status) fields.status = sent.status;
  if (sent.priority !== undefined && sent.priority !== before.priority) fields.priority = sent.priority;
  if (sent.assignee_id !== undefined && (sent.assignee_id || null) !== before.assignee_id) {
    fields.assignee_id = sent.assignee_id || null;
  }
  return fields;
}

/** A new issue's body: an empty optional field is one not given. */
const newIssue = (fields: Record<string, string>, { req }: PageCall) => ({
  title: fields.title ?? '',
  description: fields.description ?? '',
  priority: fields.priority || undefined,
  assignee_id: fields.assignee_id || null,
  customer_name: fields.customer_name?.trim() ? fields.customer_name : null,
  customer_email: fields.customer_email?.trim() ? fields.customer_email : null,
  tags: formList(req, 'tags'),
});

const issueAgain =
  (state: (refused: Refused) => IssuePageState) =>
  ({ services, res, who, req }: PageCall, refused: Refused) =>
    showIssue(services, res, who, thisIssue(req), { status: refused.status, ...state(refused) });

export const ISSUE_FORMS: FormAction[] = [
  {
    path: list,
    runs: ISSUES.create,
    body: newIssue,
    labels: LABELS,
    done: ({ who }, reply) => pageOf(who, replyBody<Issue>(reply).id, 'created'),
    again: ({ services, req, res, who }, { status, values, errors }) =>
      showList(services, req, res, who, {
        status,
        creating: { values: { ...EMPTY_ISSUE, ...values }, tags: formList(req, 'tags'), errors },
      }),
  },
  {
    path: one,
    runs: ISSUES.change,
    body: changedFields,
    labels: LABELS,
    done: ({ who, req }) => pageOf(who, thisIssue(req), 'changed'),
    again: issueAgain(({ errors }) => ({ changing: { errors, formError: errors[''] } })),
  },
  {
    path: `${one}/comments`,
    runs: ISSUES.comment,
    body: (fields) => ({ content: fields.content ?? '' }),
    labels: LABELS,
    done: ({ who, req }) => pageOf(who, thisIssue(req), 'commented', '#comments'),
    again: issueAgain(({ values, errors }) => ({ commenting: { value: values.content ?? '', errors } })),
  },
];

export function issuePages(services: Services): Router {
  const router = Router();
  router.get(list, requireMember(services), async (req, res) => {
    await showList(services, req, res, memberOf(res), {});
  });
  router.get(one, requireMember(services), async (req, res) => {
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    const id = idParam(req.params.id, 'Issue');
    await showIssue(services, res, memberOf(res), id, { saved: saved && t(`issues.saved.${saved}`) });
  });
  for (const action of ISSUE_FORMS) mountForm(router, services, action);
  return router;
}
