import type { Request } from 'express';
import { commentFeature } from '../comments/comment.routes.js';
import type { JsonReply } from '../http/reply.js';
import { operation } from '../http/operations.js';
import { suggestionBusinessRoutes } from '../suggestions/suggestion.routes.js';
import { formFields, formList } from './dashboard.forms.js';
import type { FormAction, PageCall, Refused } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import type { FieldErrors } from './dashboard.views.js';

/** What the suggestion's page shows again of a refused form. */
export interface SuggestionPageState {
  status?: number;
  changing?: { errors: FieldErrors; formError?: string };
  commenting?: { value: string; errors: FieldErrors };
  replying?: { value: string; errors: FieldErrors };
  mergeError?: string;
  /** The tags form's choice and refusal, when it is shown again. */
  tagging?: { chosen: string[]; error?: string };
  saved?: string;
}

export const SUGGESTIONS = {
  get: operation(suggestionBusinessRoutes, 'getBusinessSuggestion'),
  change: operation(suggestionBusinessRoutes, 'updateBusinessSuggestion'),
  reply: operation(suggestionBusinessRoutes, 'replyToBusinessSuggestion'),
  unreply: operation(suggestionBusinessRoutes, 'deleteBusinessSuggestionReply'),
  comment: operation(commentFeature, 'addBusinessSuggestionComment'),
};

const CHANGE_LABELS = {
  status: 'suggestion.field.status',
  priority: 'suggestion.field.priority',
  visibility: 'suggestion.field.visibility',
  review: 'suggestion.field.review',
  tags: 'suggestion.field.tags',
};

const path = '/b/:business_id/suggestions/:id';
const back =
  (saved: string, anchor = '') =>
  ({ who, req }: PageCall) =>
    `${BASE_PATH}/b/${who.principal.businessId}/suggestions/${String(req.params.id).toLowerCase()}?saved=${saved}${anchor}`;

/**
 * Only what the form moves is a change, as a PATCH gives only what it changes: a member's form sends
 * the status alone, and an unchanged field is never judged by the operation's access check.
 */
async function changedFields(fields: Record<string, string>, { services, who, req }: PageCall) {
  const current = (await SUGGESTIONS.get.invoke(services, who.principal, {
    params: { id: String(req.params.id) },
  })) as JsonReply;
  const before = current.body as Record<string, unknown>;
  const changed: Record<string, string> = {};
  for (const name of ['status', 'priority', 'visibility'] as const) {
    const value = fields[name];
    if (value !== undefined && value !== before[name]) changed[name] = value;
  }
  return changed;
}

type Again = (state: (refused: Refused, req: Request) => SuggestionPageState) => FormAction['again'];

/** A refused change: beside its fields, or for the form as a whole. */
const changing = ({ errors }: Refused): SuggestionPageState => ({ changing: { errors, formError: errors[''] } });

/**
 * A suggestion's forms, each the business family's own operation: PATCH .../suggestions/:id (status,
 * priority, visibility, review, tags; judged by the fields changed), PUT and DELETE .../reply, and
 * POST .../comments.
 */
export const suggestionForms = (again: Again): FormAction[] => [
  {
    path,
    runs: SUGGESTIONS.change,
    body: changedFields,
    labels: CHANGE_LABELS,
    done: back('changed'),
    again: again(changing),
  },
  {
    path: `${path}/review`,
    runs: SUGGESTIONS.change,
    body: (fields) => ({ review: fields.review ?? '' }),
    labels: CHANGE_LABELS,
    done: (call) => back(formFields(call.req).review === 'reject' ? 'rejected' : 'approved')(call),
    again: again(changing),
  },
  {
    path: `${path}/tags`,
    runs: SUGGESTIONS.change,
    body: (_fields, { req }) => ({ tags: formList(req, 'tags') }),
    labels: CHANGE_LABELS,
    done: back('tagged', '#tags'),
    again: again(({ errors }, req) => ({
      tagging: { chosen: formList(req, 'tags'), error: errors.tags ?? errors[''] },
    })),
  },
  {
    path: `${path}/comments`,
    runs: SUGGESTIONS.comment,
    body: (fields) => ({ content: fields.content ?? '' }),
    labels: { content: 'suggestion.field.comment' },
    done: back('commented', '#comments'),
    again: again(({ values, errors }) => ({ commenting: { value: values.content ?? '', errors } })),
  },
  {
    path: `${path}/reply`,
    runs: SUGGESTIONS.reply,
    body: (fields) => ({ content: fields.content ?? '' }),
    labels: { content: 'suggestion.field.reply' },
    done: back('replied', '#reply'),
    again: again(({ values, errors }) => ({ replying: { value: values.content ?? '', errors } })),
  },
  { path: `${path}/reply/remove`, runs: SUGGESTIONS.unreply, done: back('unreplied', '#reply') },
];
