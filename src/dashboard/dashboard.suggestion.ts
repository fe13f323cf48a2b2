import { Router, type Request, type Response } from 'express';
import { entityHistory } from '../analytics/analytics.service.js';
import type { Comment } from '../comments/comment.responses.js';
import { commentFeature } from '../comments/comment.routes.js';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Reply } from '../http/reply.js';
import type { Services } from '../http/route.js';
import type { Location } from '../locations/location.responses.js';
import { locationFeature } from '../locations/location.routes.js';
import type { QrCode } from '../qr-codes/qr-code.responses.js';
import { qrCodeFeature } from '../qr-codes/qr-code.routes.js';
import { hasMessage, t } from '../shared/messages.js';
import { PRIORITIES, SUGGESTION_STATUSES, VISIBILITIES } from '../shared/schemas.js';
import type { SuggestionDashboard } from '../suggestions/suggestion.responses.js';
import type { Tag } from '../tags/tag.responses.js';
import { tagFeature } from '../tags/tag.routes.js';
import type { Vote } from '../votes/vote.responses.js';
import { voteFeature } from '../votes/vote.routes.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { mayRun, mountForm, pageRead, replyBody, type PageCall, type Refused } from './dashboard.actions.js';
import { MERGES, mergeForms, mergeView, readSuggestion, suggestionHref } from './dashboard.merge.js';
import { SUGGESTIONS, suggestionForms, type SuggestionPageState } from './dashboard.suggestion-forms.js';
import { sendView, when } from './dashboard.views.js';

/** What the page reads beside the suggestion, each through its declared operation (access, 404, `db`). */
const READS = {
  comments: operation(commentFeature, 'listBusinessSuggestionComments'),
  votes: operation(voteFeature, 'listBusinessVotes'),
  tags: operation(tagFeature, 'listBusinessTags'),
  location: operation(locationFeature, 'getLocation'),
  qrCode: operation(qrCodeFeature, 'getQrCode'),
};

/** An operation's answer for the page, or null where it refuses (a location or QR code deleted since). */
const readOrNull = async <T>(read: Promise<Reply>): Promise<T | null> =>
  read.then((reply) => replyBody<T>(reply)).catch(() => null);

/** What a post's redirect says happened: a catalogue key (`suggestion.saved.<this>`). */
const SAVED = new Set([
  'changed',
  'approved',
  'rejected',
  'commented',
  'replied',
  'unreplied',
  'merged',
  'unmerged',
  'tagged',
]);

/** A recorded value in the words the forms use ("In progress"); tag lists by their names. */
function shown(field: string, value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? t('suggestion.history.none') : value.join(', ');
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return '—';
  const key = `suggestion.${field}.${String(value)}`;
  return hasMessage(key) ? t(key) : String(value);
}

/** Whether a recorded field moved: tag lists compare by their names. */
const moved = (from: unknown, to: unknown) => JSON.stringify(from) !== JSON.stringify(to);

/** A public reply's text, from what the activity recorded of it (the reply, or null). */
const replyText = (reply: unknown): string | null => {
  const content = (reply as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : null;
};

/** A reply's change as a person reads it: added, changed or removed, with its text. */
function describeReply(from: unknown, to: unknown): string {
  const before = replyText(from);
  const after = replyText(to);
  if (after === null) return t('suggestion.history.reply.removed', { text: before ?? '' });
  return t(before === null ? 'suggestion.history.reply.added' : 'suggestion.history.reply.changed', { text: after });
}

/** What a change recorded, as a person reads it: each field that moved, from and to. */
function describeChange(data: Record<string, unknown>): string[] {
  const from = (data.from ?? {}) as Record<string, unknown>;
  const to = (data.to ?? {}) as Record<string, unknown>;
  return Object.keys(to)
    .filter((field) => moved(from[field], to[field]))
    .map((field) => {
      if (field === 'reply') return describeReply(from[field], to[field]);
      const name = hasMessage(`suggestion.history.field.${field}`) ? t(`suggestion.history.field.${field}`) : field;
      return t('suggestion.history.change', {
        field: name,
        from: shown(field, from[field]),
        to: shown(field, to[field]),
      });
    });
}

/** The suggestion a merge went into (or an unmerge came out of), as a link: its content, shortened. */
async function mergeTargets(services: Services, who: SignedInMember, history: { type: string; data: unknown }[]) {
  const ids = new Set(
    history
      .filter((entry) => entry.type === 'suggestion.merged' || entry.type === 'suggestion.unmerged')
      .map((entry) => (entry.data as { target_id?: unknown } | null)?.target_id)
      .filter((id): id is string => typeof id === 'string'),
  );
  const targets = new Map<string, { href: string; text: string }>();
  for (const id of ids) {
    const href = suggestionHref(who.principal.businessId, id);
    const target = await readSuggestion(services, who.principal, id).catch(() => null);
    const content = target?.content ?? t('suggestion.history.another');
    targets.set(id, { href, text: content.length > 80 ? `${content.slice(0, 79)}…` : content });
  }
  return targets;
}

/**
 * A suggestion's page: everything the business family's read shows, its votes, history and comments,
 * and the forms that change it, each through the service and authorize() action of its JSON route:
 * PATCH /businesses/:id/suggestions/:id (`update`, judged by the fields changed) and its comments'
 * POST (`comment`).
 */
const path = '/b/:business_id/suggestions/:id';

async function show(
  services: Services,
  res: Response,
  who: SignedInMember,
  id: string,
  state: SuggestionPageState,
): Promise<void> {
  const { businessId } = who.principal;
  // The operation's own read: its access check (`read`) and its 404, then what only the page shows.
  const suggestion = replyBody<SuggestionDashboard>(
    await SUGGESTIONS.get.invoke(services, who.principal, { params: { id } }),
  );
  const principal = who.principal;
  const [history, comments, votes, location, merging, tags] = await Promise.all([
    pageRead(services, principal, (db) => entityHistory(db, businessId, 'suggestion', id)),
    READS.comments
      .invoke(services, principal, { params: { id }, query: { order: 'asc', limit: '100' } })
      .then((reply) => replyBody<{ data: Comment[]; total: number }>(reply)),
    READS.votes
      .invoke(services, principal, { params: { id }, query: { order: 'desc', limit: '50' } })
      .then((reply) => replyBody<{ data: Vote[]; total: number }>(reply)),
    suggestion.location_id
      ? readOrNull<Location>(READS.location.invoke(services, principal, { params: { id: suggestion.location_id } }))
      : null,
    mergeView(services, principal, suggestion),
    READS.tags.invoke(services, principal).then((reply) => replyBody<{ data: Tag[] }>(reply).data),
  ]);
  const targets = await mergeTargets(services, who, history);
  const qrCodeId = history.find((entry) => entry.type === 'suggestion.created')?.actor_qr_code_id;
  const qrCode = qrCodeId
    ? await readOrNull<QrCode>(READS.qrCode.invoke(services, principal, { params: { id: qrCodeId } }))
    : null;
  const canWrite = allowed(who.principal, 'write');
  sendView(res, state.status ?? 200, 'suggestion', {
    ...memberFrame(who, t('suggestion.title'), 'home'),
    suggestion: { ...suggestion, created: when(new Date(suggestion.created_at)) },
    location: location ? { name: location.name } : null,
    qrCode: qrCode ? { label: qrCode.label, code: qrCode.code } : null,
    votes: {
      total: votes.total,
      rows: votes.data.map((v) => ({
        who: v.name ?? v.email ?? (v.voter_type === 'anonymous' ? t('app.suggestion.votes.anonymous') : v.external_id),
        when: when(new Date(v.created_at)),
      })),
    },
    history: history.map((entry) => ({
      what: hasMessage(`suggestion.history.${entry.type}`) ? t(`suggestion.history.${entry.type}`) : entry.type,
      who:
        entry.actor_name ??
        (entry.actor_api_key_name ? t('suggestion.history.api_key', { name: entry.actor_api_key_name }) : null),
      changes: entry.type === 'suggestion.updated' ? describeChange(entry.data) : [],
      // A merge names the suggestion it went into; an unmerge, the one it came out of.
      target: targets.get(String((entry.data as { target_id?: unknown } | null)?.target_id)),
      when: when(entry.created_at),
    })),
    comments: comments.data.map((c) => ({ ...c, when: when(new Date(c.created_at)) })),
    commentTotal: comments.total,
    // The options in the words History uses for the same values.
    statuses: SUGGESTION_STATUSES.map((value) => ({ value, text: t(`suggestion.status.${value}`) })),
    priorities: PRIORITIES.map((value) => ({ value, text: t(`suggestion.priority.${value}`) })),
    visibilities: VISIBILITIES.map((value) => ({ value, text: t(`suggestion.visibility.${value}`) })),
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
    canMerge: mayRun(who.principal, MERGES.merge),
    saved: state.saved,
  });
}

/** The suggestion's page shown again with a refused form, marked. */
const again =
  (state: (refused: Refused, req: Request) => SuggestionPageState) =>
  ({ services, res, who, req }: PageCall, refused: Refused) =>
    show(services, res, who, String(req.params.id).toLowerCase(), { status: refused.status, ...state(refused, req) });

export const SUGGESTION_FORMS = [...suggestionForms(again), ...mergeForms(path, again)];

export function suggestionPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    const id = idParam(req.params.id, 'Suggestion');
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    await show(services, res, who, id, { saved: saved && t(`suggestion.saved.${saved}`) });
  });
  for (const action of SUGGESTION_FORMS) mountForm(router, services, action);

  return router;
}
