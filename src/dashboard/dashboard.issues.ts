import { Router, type Request, type Response } from 'express';
import { entityHistory } from '../analytics/analytics.service.js';
import { authorize, type Action } from '../auth/authorize.js';
import { toCommentResponse } from '../comments/comment.presenter.js';
import { createCommentBody } from '../comments/comment.schemas.js';
import { addComment, listComments } from '../comments/comment.service.js';
import { HttpError } from '../errors/http-error.js';
import { cachedList } from '../http/cached-list.js';
import { envelopeOf, idParam, listRequest } from '../http/params.js';
import type { Services } from '../http/route.js';
import { toIssueResponse } from '../issues/issue.presenter.js';
import type { Issue } from '../issues/issue.responses.js';
import { listIssuesOffsetQuery, updateIssueBody } from '../issues/issue.schemas.js';
import { changeIssue, getIssue, listIssues } from '../issues/issue.service.js';
import { ISSUE_STATUSES, PRIORITIES } from '../shared/schemas.js';
import { getTeam } from '../team/team.service.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { age } from './dashboard.inbox.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

const QUERY_FIELDS = ['status', 'priority', 'assignee_id', 'q', 'limit', 'offset'] as const;
type IssueValues = Partial<Record<(typeof QUERY_FIELDS)[number], string>>;

const LABELS: Record<string, string> = {
  status: 'The status',
  priority: 'The priority',
  assignee_id: 'The assignee',
  q: 'The search',
  limit: 'The page size',
  offset: 'The position',
};

const SAVED: Record<string, string> = {
  changed: 'The issue is changed.',
  commented: 'Your comment is added.',
};

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

interface IssuePageState {
  status?: number;
  changing?: { errors: FieldErrors; formError?: string };
  commenting?: { value: string; errors: FieldErrors };
  saved?: string;
}

/**
 * Issues: the business family's list (GET /businesses/:id/issues, its parameters and its cache
 * entry), and an issue's page whose forms are its JSON routes': PATCH (`update`: a member may change
 * the status; assigning and the priority need owner or admin) through changeIssue, whose state rules
 * (assigning an open issue, resolved_at) are the API's, and comments (`comment`) through addComment.
 */
export function issuePages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const list = '/b/:business_id/issues';
  const one = `${list}/:issue_id`;
  const pageOf = (who: SignedInMember, id: string) => `${BASE_PATH}/b/${who.principal.businessId}/issues/${id}`;

  const allowedTo = (req: Request, res: Response, action: Action, fields?: string[]): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action, fields);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  router.get(list, requireMember(services), async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const { businessId } = who.principal;
    const values = listValues(req);
    const { members } = await getTeam(pool, businessId);
    const names = new Map(members.map((m) => [m.id, m.name ?? m.email]));
    const frame = {
      ...memberFrame(who, 'Issues', 'issues'),
      values,
      statuses: ISSUE_STATUSES,
      priorities: PRIORITIES,
      members: members.map((m) => ({ id: m.id, name: m.name ?? m.email })),
    };
    const parsed = parseForm(listIssuesOffsetQuery, values, LABELS);
    if (!parsed.ok) {
      return sendView(res, 400, 'issues', { ...frame, errors: parsed.errors, rows: [], total: 0, offset: 0 });
    }
    const query = parsed.data;
    const reply = await cachedList(
      services.lists,
      who.principal,
      `business issues ${JSON.stringify(query)}`,
      async () => {
        const { page, filter } = listRequest(query);
        const { assignee_id, ...rest } = filter;
        const result = await services.reads.read(who.principal, 'dashboard', (reader) =>
          listIssues(reader, businessId, { ...rest, assigneeId: assignee_id }, page),
        );
        return envelopeOf(query, result.rows.map(toIssueResponse), result.total);
      },
    );
    const body = (
      reply.kind === 'media' ? JSON.parse(reply.body.toString()) : reply.kind === 'json' ? reply.body : null
    ) as { data: Issue[]; total: number; limit: number; offset: number };
    const now = Date.now();
    const { limit, offset, total } = body;
    sendView(res, 200, 'issues', {
      ...frame,
      errors: {},
      rows: body.data.map((issue) => ({
        ...issue,
        assignee: issue.assignee_id ? (names.get(issue.assignee_id) ?? 'A former member') : null,
        age: age(issue.created_at, now),
      })),
      total,
      offset,
      previous: offset > 0 ? pageHref(businessId, values, Math.max(0, offset - limit)) : undefined,
      next: offset + limit < total ? pageHref(businessId, values, offset + limit) : undefined,
    });
  });

  async function show(res: Response, who: SignedInMember, id: string, state: IssuePageState) {
    const { businessId } = who.principal;
    const issue = toIssueResponse(await getIssue(pool, businessId, id));
    const page = { sort: 'created_at' as const, order: 'asc' as const, limit: 100, offset: 0 };
    const [{ members }, comments, history] = await Promise.all([
      getTeam(pool, businessId),
      listComments(pool, businessId, 'issue', id, page),
      entityHistory(pool, businessId, 'issue', id),
    ]);
    const names = new Map(members.map((m) => [m.id, m.name ?? m.email]));
    sendView(res, state.status ?? 200, 'issue', {
      ...memberFrame(who, 'Issue', 'issues'),
      issue: {
        ...issue,
        assignee: issue.assignee_id ? (names.get(issue.assignee_id) ?? 'A former member') : null,
        created: when(new Date(issue.created_at)),
        resolved: issue.resolved_at ? when(new Date(issue.resolved_at)) : null,
      },
      members: members.map((m) => ({ id: m.id, name: m.name ?? m.email })),
      statuses: ISSUE_STATUSES,
      priorities: PRIORITIES,
      history: history.map((entry) => ({
        what: entry.type.replace('issue.', ''),
        who: entry.actor_name ?? (entry.actor_api_key_name ? `API key ${entry.actor_api_key_name}` : null),
        when: when(entry.created_at),
      })),
      comments: comments.rows.map((c) => ({ ...toCommentResponse(c), when: when(c.created_at) })),
      commentTotal: comments.total,
      canWrite: allowed(who.principal, 'write'),
      canStatus: allowed(who.principal, 'change_status'),
      canComment: allowed(who.principal, 'comment'),
      changing: state.changing ?? { errors: {} },
      commenting: state.commenting ?? { value: '', errors: {} },
      saved: state.saved,
    });
  }

  router.get(one, requireMember(services), async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await show(res, who, idParam(req.params.issue_id, 'Issue'), { saved });
  });

  router.post(one, requireMember(services), formBody, async (req, res) => {
    const id = idParam(req.params.issue_id, 'Issue');
    const before = await getIssue(pool, memberOf(res).principal.businessId, id);
    // Only what the form moves is a change, as a PATCH gives only what it changes.
    const sent = formFields(req);
    const fields: Record<string, string | null> = {};
    if (sent.status !== undefined && sent.status !== before.status) fields.status = sent.status;
    if (sent.priority !== undefined && sent.priority !== before.priority) fields.priority = sent.priority;
    if (sent.assignee_id !== undefined && (sent.assignee_id || null) !== before.assignee_id) {
      fields.assignee_id = sent.assignee_id || null;
    }
    const who = allowedTo(req, res, 'update', Object.keys(fields));
    const form = parseForm(updateIssueBody, fields, {
      status: 'The status',
      priority: 'The priority',
      assignee_id: 'The assignee',
    });
    if (!form.ok) {
      const formError = form.errors[''] ? 'Change at least one of status, priority or assignee.' : undefined;
      return show(res, who, id, { status: 400, changing: { errors: form.errors, formError } });
    }
    try {
      await changeIssue(pool, who.principal, id, form.data);
    } catch (err) {
      // The service's refusal of an assignee (not a member) is about that field.
      if (err instanceof HttpError && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 404) {
        return show(res, who, id, { status: err.statusCode, changing: { errors: { assignee_id: err.message } } });
      }
      throw err;
    }
    res.redirect(303, `${pageOf(who, id)}?saved=changed`);
  });

  router.post(`${one}/comments`, requireMember(services), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'comment');
    const id = idParam(req.params.issue_id, 'Issue');
    const content = formFields(req).content ?? '';
    const form = parseForm(createCommentBody, { content }, { content: 'The comment' });
    if (!form.ok) return show(res, who, id, { status: 400, commenting: { value: content, errors: form.errors } });
    await addComment(pool, who.principal, 'issue', id, form.data.content);
    res.redirect(303, `${pageOf(who, id)}?saved=commented#comments`);
  });

  return router;
}
