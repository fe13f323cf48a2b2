import { Router, type Request, type Response } from 'express';
import { authorize, type Action } from '../auth/authorize.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { createTagBody, DEFAULT_TAG_COLOR, updateTagBody } from '../tags/tag.schemas.js';
import { changeTag, createTag, listTags, removeTag } from '../tags/tag.service.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

/** What a post's redirect says happened: fixed words, never text from the address. */
const SAVED: Record<string, string> = {
  added: 'The tag is added.',
  changed: 'The tag is saved: every suggestion and issue that carries it shows the change.',
  deleted: 'The tag is deleted and taken off every suggestion and issue that carried it.',
};

const LABELS = { name: 'The name', color: 'The colour', public: 'Shown on the public page' };

interface TagsView {
  /** The new tag form's values and errors, when it is shown again. */
  adding?: { values: Record<string, string>; errors: FieldErrors };
  /** A tag's form, by its id. */
  editing?: { id: string; values: Record<string, string>; errors: FieldErrors };
  saved?: string;
}

/** A form's values as the page shows them again, and as the JSON body's schema reads them. */
function tagForm(req: Request) {
  const fields = formFields(req);
  const values = { name: fields.name ?? '', color: fields.color ?? '', public: fields.public === 'true' ? 'true' : '' };
  return { values, body: { name: values.name, color: values.color, public: values.public === 'true' } };
}

/** A refusal a person can act on, beside the name: taken (409). */
function nameRefusal(err: unknown): string {
  if (err instanceof HttpError && err.statusCode === 409) return err.message;
  throw err;
}

/**
 * Settings, Tags: the labels suggestions and issues carry (docs/tags.md), through the JSON routes'
 * services and authorize() actions: `read` to see them, `manage_business` to add, change and delete.
 */
export function tagPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const member = requireMember(pool);
  const path = '/b/:business_id/settings/tags';
  const tagsOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/settings/tags`;

  const allowedTo = (req: Request, res: Response, action: Action): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function show(res: Response, who: SignedInMember, status: number, view: TagsView) {
    const tags = await listTags(pool, who.principal.businessId);
    sendView(res, status, 'tags', {
      ...memberFrame(who, 'Tags', 'settings'),
      tags: tags.map((tag) => {
        const editing = view.editing?.id === tag.id ? view.editing : undefined;
        return {
          id: tag.id,
          name: tag.name,
          color: tag.color,
          public: tag.public,
          values: editing?.values ?? { name: tag.name, color: tag.color, public: tag.public ? 'true' : '' },
          errors: editing?.errors ?? {},
        };
      }),
      adding: view.adding ?? { values: { name: '', color: DEFAULT_TAG_COLOR, public: '' }, errors: {} },
      saved: view.saved,
    });
  }

  router.get(path, member, async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await show(res, who, 200, { saved });
  });

  router.post(path, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_business');
    const { values, body } = tagForm(req);
    const form = parseForm(createTagBody, body, LABELS);
    if (!form.ok) return show(res, who, 400, { adding: { values, errors: form.errors } });
    try {
      await createTag(pool, who.principal, form.data);
    } catch (err) {
      return show(res, who, 409, { adding: { values, errors: { name: nameRefusal(err) } } });
    }
    res.redirect(303, `${tagsOf(who)}?saved=added`);
  });

  router.post(`${path}/:tag_id`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_business');
    const id = idParam(req.params.tag_id, 'Tag');
    const { values, body } = tagForm(req);
    const form = parseForm(updateTagBody, body, LABELS);
    if (!form.ok) return show(res, who, 400, { editing: { id, values, errors: form.errors } });
    try {
      await changeTag(pool, who.principal, id, form.data);
    } catch (err) {
      return show(res, who, 409, { editing: { id, values, errors: { name: nameRefusal(err) } } });
    }
    res.redirect(303, `${tagsOf(who)}?saved=changed`);
  });

  router.post(`${path}/:tag_id/delete`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_business');
    await removeTag(pool, who.principal, who.principal.businessId, idParam(req.params.tag_id, 'Tag'));
    res.redirect(303, `${tagsOf(who)}?saved=deleted`);
  });

  return router;
}
