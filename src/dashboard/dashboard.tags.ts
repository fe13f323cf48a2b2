import { Router, type Response } from 'express';
import type { Route, Services } from '../http/route.js';
import type { JsonReply } from '../http/reply.js';
import { t } from '../shared/messages.js';
import { operation } from '../http/operations.js';
import { DEFAULT_TAG_COLOR } from '../tags/tag.schemas.js';
import { tagFeature } from '../tags/tag.routes.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { notFound } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import {
  assertMayRun,
  mountForm,
  replyBody,
  type FormAction,
  type PageCall,
  type Refused,
} from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** What a post's redirect says happened: a catalogue key, never text from the address. */
const SAVED = new Set(['added', 'changed', 'deleted']);

const LABELS = { name: 'tags.field.name', color: 'tags.field.color', public: 'tags.field.public' };

const TAGS = {
  list: operation(tagFeature, 'listBusinessTags'),
  create: operation(tagFeature, 'createTag'),
  change: operation(tagFeature, 'updateTag'),
  remove: operation(tagFeature, 'deleteTag'),
};

interface TagsView {
  /** The new tag form's values and errors, when it is shown again. */
  adding?: { values: Record<string, string>; errors: FieldErrors };
  /** A tag's form, by its id. */
  editing?: { id: string; values: Record<string, string>; errors: FieldErrors };
  saved?: string;
}

interface TagRow {
  id: string;
  name: string;
  color: string;
  public: boolean;
}

const path = '/b/:business_id/settings/tags';
const tagsOf = (who: SignedInMember, saved: string) =>
  `${BASE_PATH}/b/${who.principal.businessId}/settings/tags?saved=${saved}`;

/** The form's fields as the JSON body reads them: an unticked box is not sent, and means false. */
const tagBody = (fields: Record<string, string>) => ({
  name: fields.name ?? '',
  color: fields.color ?? '',
  public: fields.public === 'true',
});

/** The form as sent, to show again. */
const shownValues = (fields: Record<string, string>) => ({
  name: fields.name ?? '',
  color: fields.color ?? '',
  public: fields.public === 'true' ? 'true' : '',
});

async function show(services: Services, res: Response, who: SignedInMember, status: number, view: TagsView) {
  const listed = (await TAGS.list.invoke(services, who.principal)) as JsonReply;
  const tags = (listed.body as { data: TagRow[] }).data;
  sendView(res, status, 'tags', {
    ...memberFrame(who, t('tags.title'), 'settings'),
    tags: tags.map((tag) => {
      const editing = view.editing?.id === tag.id ? view.editing : undefined;
      return {
        ...tag,
        values: editing?.values ?? { name: tag.name, color: tag.color, public: tag.public ? 'true' : '' },
        errors: editing?.errors ?? {},
      };
    }),
    adding: view.adding ?? { values: { name: '', color: DEFAULT_TAG_COLOR, public: '' }, errors: {} },
    saved: view.saved,
  });
}

const again =
  (form: 'adding' | 'editing') =>
  ({ req, res, who, services }: PageCall, { status, values, errors }: Refused) => {
    const shown = { values: shownValues(values), errors };
    const view =
      form === 'adding' ? { adding: shown } : { editing: { id: String(req.params.id).toLowerCase(), ...shown } };
    return show(services, res, who, status, view);
  };

const form = (runs: Route, suffix: string, saved: string, extra: Partial<FormAction>): FormAction => ({
  path: `${path}${suffix}`,
  runs,
  labels: LABELS,
  done: ({ who }) => tagsOf(who, saved),
  ...extra,
});

/**
 * Settings, Tags (docs/tags.md): the forms run the JSON routes' own operations, so who may add, change
 * and delete a tag (`manage_business`) and what a name may be are decided there.
 */
export const TAG_FORMS: FormAction[] = [
  form(TAGS.create, '', 'added', { body: tagBody, again: again('adding') }),
  form(TAGS.change, '/:id', 'changed', { body: tagBody, again: again('editing') }),
  form(TAGS.remove, '/:id/delete', 'deleted', {}),
];

export function tagPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    await show(services, res, who, 200, { saved: saved && t(`tags.saved.${saved}`) });
  });
  // Deleting a tag takes it off every item that carries it: the page asks first, as for a location.
  router.get(`${path}/:id/delete`, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, TAGS.remove);
    const id = idParam(req.params.id, 'Tag');
    const tags = replyBody<{ data: TagRow[] }>(await TAGS.list.invoke(services, who.principal)).data;
    const tag = tags.find((candidate) => candidate.id === id);
    if (!tag) throw notFound('Tag');
    sendView(res, 200, 'tag-delete', {
      ...memberFrame(who, t('tags.delete.title'), 'settings'),
      tag: { id: tag.id, name: tag.name },
    });
  });
  for (const action of TAG_FORMS) mountForm(router, services, action);
  return router;
}
