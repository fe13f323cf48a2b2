import { resourceFeature } from '../http/resource-routes.js';
import { toTagResponse } from './tag.presenter.js';
import { tagListSchema, tagSchema } from './tag.responses.js';
import { createTagBody, updateTagBody } from './tag.schemas.js';
import { changeTag, createTag, listTags, removeTag } from './tag.service.js';

/** /businesses/:business_id/tags and /api/v1/tags: the labels suggestions and issues carry (docs/tags.md). */
export const tagFeature = resourceFeature({
  path: '/tags',
  tag: { name: 'Tags', description: 'Labels a business sorts suggestions and issues by; read by either family' },
  resource: 'Tag',
  noun: 'tag',
  plural: 'tags',
  // Tags are the business's settings: owners and admins define them (never a key); everyone reads them.
  access: { read: 'read', write: 'manage_business' },
  schema: tagSchema,
  present: toTagResponse,
  all: {
    operationId: 'listTags',
    summary: 'List the tags',
    description: 'Every tag of the business (at most 200), alphabetically ignoring case. Items name them in `tags`.',
    json: tagListSchema,
    business: { operationId: 'listBusinessTags', summary: 'List the tags (dashboard)' },
    run: ({ principal, db }) => listTags(db, principal.businessId),
  },
  create: {
    operationId: 'createTag',
    summary: 'Create a tag',
    description:
      'A name the business already uses (ignoring case) is a 409, and so is a 201st tag. `public: true` ' +
      'shows the tag on the suggestions of the public page.',
    body: createTagBody,
    errors: [409],
    run: ({ principal, body, db }) => createTag(db, principal, body),
  },
  update: {
    operationId: 'updateTag',
    summary: 'Rename, recolour or publish a tag',
    description:
      'A name another tag of the business uses (ignoring case) is a 409. A rename shows at once on every ' +
      'item that carries the tag (reads, lists, exports); it does not change their `updated_at` and ' +
      'publishes no `suggestion.updated` or `issue.updated`.',
    body: updateTagBody,
    errors: [409],
    answer: 'The tag',
    run: ({ principal, body, id, db }) => changeTag(db, principal, id, body),
  },
  remove: {
    operationId: 'deleteTag',
    summary: 'Delete a tag',
    description:
      'Takes the tag off every suggestion and issue that carries it, in the same transaction. Like a ' +
      'rename, this leaves their `updated_at` alone and publishes no per-item event.',
    run: ({ principal, id, db }) => removeTag(db, principal, principal.businessId, id),
  },
});
