import { defineFamilies } from '../http/families.js';
import { created, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toTagResponse } from './tag.presenter.js';
import { tagListSchema, tagSchema } from './tag.responses.js';
import { createTagBody, updateTagBody } from './tag.schemas.js';
import { changeTag, createTag, listTags, removeTag } from './tag.service.js';

const base = '/businesses/:business_id/tags';
const common = { tag: 'Tags', guard: 'business' } as const;
// Tags are the business's settings: owners and admins define them (never a key); everyone reads them.
const one = { ...common, path: `${base}/:id`, resource: 'Tag', action: 'manage_business' } as const;

const list = defineFamilies({
  method: 'get',
  path: '/tags',
  tag: 'Tags',
  action: 'read',
  summary: 'List the tags',
  description: 'Every tag of the business (at most 200), alphabetically ignoring case. Items name them in `tags`.',
  responses: [{ status: 200, description: 'Every tag of the business', json: tagListSchema }],
  v1: { operationId: 'listTags' },
  business: { operationId: 'listBusinessTags', summary: 'List the tags (dashboard)' },
  handler: async ({ principal, db }) => ok({ data: (await listTags(db, principal.businessId)).map(toTagResponse) }),
});

/** /businesses/:business_id/tags and /api/v1/tags: the labels suggestions and issues carry (docs/tags.md). */
export const tagFeature: Feature = {
  tags: [{ name: 'Tags', description: 'Labels a business sorts suggestions and issues by; read by either family' }],
  routes: [
    list.v1,
    list.business,
    defineRoute({
      ...common,
      method: 'post',
      path: base,
      operationId: 'createTag',
      summary: 'Create a tag',
      description:
        'A name the business already uses (ignoring case) is a 409, and so is a 201st tag. `public: true` ' +
        'shows the tag on the suggestions of the public page.',
      action: 'manage_business',
      body: createTagBody,
      responses: [
        {
          status: 201,
          description: 'The new tag',
          json: tagSchema,
          headers: { Location: { description: 'The new tag: `/businesses/{business_id}/tags/{id}`', required: true } },
        },
      ],
      errors: [409],
      handler: async ({ baseUrl, principal, body, db }) => {
        const tag = await createTag(db, principal, body);
        return created(toTagResponse(tag), `${baseUrl}/tags/${tag.id}`);
      },
    }),
    defineRoute({
      ...one,
      method: 'patch',
      operationId: 'updateTag',
      summary: 'Rename, recolour or publish a tag',
      description:
        'A name another tag of the business uses (ignoring case) is a 409. A rename shows at once on every ' +
        'item that carries the tag (reads, lists, exports); it does not change their `updated_at` and ' +
        'publishes no `suggestion.updated` or `issue.updated`.',
      body: updateTagBody,
      responses: [{ status: 200, description: 'The tag', json: tagSchema }],
      errors: [409],
      handler: async ({ principal, body, id, db }) => ok(toTagResponse(await changeTag(db, principal, id, body))),
    }),
    defineRoute({
      ...one,
      method: 'delete',
      operationId: 'deleteTag',
      summary: 'Delete a tag',
      description:
        'Takes the tag off every suggestion and issue that carries it, in the same transaction. Like a ' +
        'rename, this leaves their `updated_at` alone and publishes no per-item event.',
      responses: [{ status: 204, description: 'Deleted' }],
      handler: async ({ principal, id, db }) => {
        await removeTag(db, principal, principal.businessId, id);
        return noContent();
      },
    }),
  ],
};
