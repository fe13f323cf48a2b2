import { Router, type Request, type Response } from 'express';
import { entityHistory } from '../analytics/analytics.service.js';
import { authorize, type Action } from '../auth/authorize.js';
import { toCommentResponse } from '../comments/comment.presenter.js';
import { createCommentBody } from '../comments/comment.schemas.js';
import { addComment, listComments } from '../comments/comment.service.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { getLocation } from '../locations/location.service.js';
import { getQrCode } from '../qr-codes/qr-code.service.js';
import { PRIORITIES, SUGGESTION_STATUSES, VISIBILITIES } from '../shared/schemas.js';
import { toSuggestionDashboardResponse } from '../suggestions/suggestion.presenter.js';
import { replySuggestionBody, updateSuggestionDashboardBody } from '../suggestions/suggestion.schemas.js';
import { removeReply, replyToSuggestion } from '../suggestions/suggestion-reply.service.js';
import { changeSuggestion, getSuggestion } from '../suggestions/suggestion.service.js';
import { listTags } from '../tags/tag.service.js';
import { listVotes } from '../votes/vote.service.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, formList, parseForm } from './dashboard.forms.js';
import { addMergeForms, mergeView } from './dashboard.merge.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

const SAVED: Record<string, string> = {
  changed: 'The suggestion is changed.',
  approved: 'The suggestion is approved.',
  rejected: 'The suggestion is rejected: it stays off the public page.',
  commented: 'Your comment is added.',
  replied: 'Your reply is saved: the public page shows it under the suggestion.',
  unreplied: 'The reply is removed.',
  merged: 'The duplicate is merged into this suggestion: its votes, followers and comments are here now.',
  unmerged: 'The suggestion is unmerged: it has its own votes and comments back.',
  tagged: 'The tags are saved.',
};

const HAPPENED: Record<string, string> = {
  'suggestion.created': 'Received',
  'suggestion.updated': 'Changed',
  'suggestion.commented': 'Commented',
  'suggestion.voted': 'Voted for',
  'suggestion.unvoted': 'Vote taken back',
  'suggestion.merged': 'Merged into another suggestion',
  'suggestion.unmerged': 'Unmerged',
};

/** A recorded value as text: the activity records plain values (a status, a priority) and tag lists. */
const shown = (value: unknown): string => {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(shown).join(', ');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '—';
};

/** Whether a recorded field moved: tag lists compare by their names. */
const moved = (from: unknown, to: unknown) => JSON.stringify(from) !== JSON.stringify(to);

/** What a change recorded, as a person reads it: each field that moved, from and to. */
function describeChange(data: Record<string, unknown>): string[] {
  const from = (data.from ?? {}) as Record<string, unknown>;
  const to = (data.to ?? {}) as Record<string, unknown>;
  return Object.keys(to)
    .filter((field) => moved(from[field], to[field]))
    .map((field) => `${field.replace('_', ' ')}: ${shown(from[field])} → ${shown(to[field])}`);
}

interface SuggestionPageState {
  status?: number;
  changing?: { errors: FieldErrors; formError?: string };
  commenting?: { value: string; errors: FieldErrors };
  replying?: { value: string; errors: FieldErrors };
  mergeError?: string;
  /** The tags form's choice and refusal, when it is shown again. */
  tagging?: { chosen: string[]; error?: string };
  saved?: string;
}

/**
 * A suggestion's page: everything the business family's read shows, its votes, history and comments,
 * and the forms that change it, each through the service and authorize() action of its JSON route:
 * PATCH /businesses/:id/suggestions/:id (`update`, judged by the fields changed) and its comments'
 * POST (`comment`).
 */
export function suggestionPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const path = '/b/:business_id/suggestions/:suggestion_id';
  const pageOf = (who: SignedInMember, id: string) => `${BASE_PATH}/b/${who.principal.businessId}/suggestions/${id}`;

  const allowedTo = (req: Request, res: Response, action: Action, fields?: string[]): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action, fields);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function show(res: Response, who: SignedInMember, id: string, state: SuggestionPageState) {
    const { businessId } = who.principal;
    const row = await getSuggestion(pool, businessId, id);
    const suggestion = toSuggestionDashboardResponse(row);
    const page = { sort: 'created_at' as const, order: 'asc' as const, limit: 100, offset: 0 };
    const [history, comments, votes, location, merging, tags] = await Promise.all([
      entityHistory(pool, businessId, 'suggestion', id),
      listComments(pool, businessId, 'suggestion', id, page),
      listVotes(pool, businessId, id, { ...page, order: 'desc', limit: 50 }),
      row.location_id ? getLocation(pool, businessId, row.location_id).catch(() => null) : null,
      mergeView(pool, businessId, row),
      listTags(pool, businessId),
    ]);
    const qrCodeId = history.find((entry) => entry.type === 'suggestion.created')?.actor_qr_code_id;
    const qrCode = qrCodeId ? await getQrCode(pool, businessId, qrCodeId).catch(() => null) : null;
    const canWrite = allowed(who.principal, 'write');
    sendView(res, state.status ?? 200, 'suggestion', {
      ...memberFrame(who, 'Suggestion', 'home'),
      suggestion: { ...suggestion, created: when(row.created_at) },
      location: location ? { name: location.name } : null,
      qrCode: qrCode ? { label: qrCode.label, code: qrCode.code } : null,
      votes: {
        total: votes.total,
        rows: votes.rows.map((v) => ({
          who: v.voter_name ?? v.voter_email ?? (v.voter_type === 'anonymous' ? 'Anonymous' : v.voter_external_id),
          when: when(v.created_at),
        })),
      },
      history: history.map((entry) => ({
        what: HAPPENED[entry.type] ?? entry.type,
        who: entry.actor_name ?? (entry.actor_api_key_name ? `API key ${entry.actor_api_key_name}` : null),
        changes: entry.type === 'suggestion.updated' ? describeChange(entry.data) : [],
        when: when(entry.created_at),
      })),
      comments: comments.rows.map((c) => ({ ...toCommentResponse(c), when: when(c.created_at) })),
      commentTotal: comments.total,
      statuses: SUGGESTION_STATUSES,
      priorities: PRIORITIES,
      visibilities: VISIBILITIES,
      canWrite,
      canStatus: allowed(who.principal, 'change_status'),
      canComment: allowed(who.principal, 'comment'),
      // Tagging: the business's tags to choose from, set as PATCH .../suggestions/:id with `tags` does.
      canTag: allowed(who.principal, 'tag_items'),
      tags: tags.map((tag) => ({ name: tag.name, color: tag.color, public: tag.public })),
      tagging: state.tagging ?? { chosen: suggestion.tags },
      awaitingReview: suggestion.review_state === 'pending',
      changing: state.changing ?? { errors: {} },
      commenting: state.commenting ?? { value: '', errors: {} },
      // The business's public reply: set and removed as PUT and DELETE .../reply do (`write`).
      reply: suggestion.reply ? { ...suggestion.reply, when: when(new Date(suggestion.reply.updated_at)) } : null,
      replying: state.replying ?? { value: suggestion.reply?.content ?? '', errors: {} },
      // Merging: as POST .../merge and .../unmerge (`change_status`)
      merging: { ...merging, mergeError: state.mergeError },
      saved: state.saved,
    });
  }

  router.get(path, requireMember(pool), async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await show(res, who, id, { saved });
  });

  /** A change through changeSuggestion; the service's 409 (a review not pending) is shown on the page. */
  async function change(req: Request, res: Response, fields: Record<string, string>, saved: string) {
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const who = allowedTo(req, res, 'update', Object.keys(fields));
    const form = parseForm(updateSuggestionDashboardBody, fields, {
      status: 'The status',
      priority: 'The priority',
      visibility: 'The visibility',
      review: 'The decision',
    });
    if (!form.ok) {
      const formError = form.errors[''] ? 'Change at least one of status, priority or visibility.' : undefined;
      return show(res, who, id, { status: 400, changing: { errors: form.errors, formError } });
    }
    try {
      await changeSuggestion(pool, who.principal, id, form.data);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409) {
        return show(res, who, id, { status: 409, changing: { errors: {}, formError: err.message } });
      }
      throw err;
    }
    res.redirect(303, `${pageOf(who, id)}?saved=${saved}`);
  }

  router.post(path, requireMember(pool), formBody, async (req, res) => {
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const before = await getSuggestion(pool, memberOf(res).principal.businessId, id);
    // Only what the form moves is a change, as a PATCH gives only what it changes: a member's form
    // sends the status alone, and an unchanged field is never judged by authorize().
    const sent = formFields(req);
    const fields: Record<string, string> = {};
    for (const name of ['status', 'priority', 'visibility'] as const) {
      const value = sent[name];
      if (value !== undefined && value !== before[name]) fields[name] = value;
    }
    await change(req, res, fields, 'changed');
  });

  router.post(`${path}/review`, requireMember(pool), formBody, async (req, res) => {
    const review = formFields(req).review ?? '';
    await change(req, res, { review }, review === 'reject' ? 'rejected' : 'approved');
  });

  router.post(`${path}/tags`, requireMember(pool), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'update', ['tags']);
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const chosen = formList(req, 'tags');
    const form = parseForm(updateSuggestionDashboardBody, { tags: chosen }, { tags: 'The tags' });
    if (!form.ok) {
      return show(res, who, id, { status: 400, tagging: { chosen, error: form.errors.tags ?? 'Choose again.' } });
    }
    try {
      await changeSuggestion(pool, who.principal, id, form.data);
    } catch (err) {
      // A tag deleted since the page was shown: say so, and show what is there now.
      if (err instanceof HttpError && err.statusCode === 422) {
        return show(res, who, id, { status: 422, tagging: { chosen, error: err.message.split(':')[0] } });
      }
      throw err;
    }
    res.redirect(303, `${pageOf(who, id)}?saved=tagged#tags`);
  });

  router.post(`${path}/comments`, requireMember(pool), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'comment');
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const content = formFields(req).content ?? '';
    const form = parseForm(createCommentBody, { content }, { content: 'The comment' });
    if (!form.ok) return show(res, who, id, { status: 400, commenting: { value: content, errors: form.errors } });
    await addComment(pool, who.principal, 'suggestion', id, form.data.content);
    res.redirect(303, `${pageOf(who, id)}?saved=commented#comments`);
  });

  router.post(`${path}/reply`, requireMember(pool), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    const content = formFields(req).content ?? '';
    const form = parseForm(replySuggestionBody, { content }, { content: 'The reply' });
    if (!form.ok) return show(res, who, id, { status: 400, replying: { value: content, errors: form.errors } });
    await replyToSuggestion(pool, who.principal, id, form.data.content);
    res.redirect(303, `${pageOf(who, id)}?saved=replied#reply`);
  });

  router.post(`${path}/reply/remove`, requireMember(pool), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const id = idParam(req.params.suggestion_id, 'Suggestion');
    await removeReply(pool, who.principal, id);
    res.redirect(303, `${pageOf(who, id)}?saved=unreplied#reply`);
  });

  addMergeForms(router, services, path, (res, who, id, mergeError, status) =>
    show(res, who, id, { status, mergeError }),
  );

  return router;
}
