import { pageEnvelope } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { resourceFeature } from '../http/resource-routes.js';
import { defineRoute } from '../http/route.js';
import { toChangelogEntryResponse } from './changelog.presenter.js';
import { changelogEntrySchema, changelogOffsetPageSchema, changelogPageSchema } from './changelog.responses.js';
import {
  createChangelogBody,
  listChangelogOffsetQuery,
  listChangelogQuery,
  publishChangelogBody,
  updateChangelogBody,
} from './changelog.schemas.js';
import {
  changeChangelogEntry,
  createChangelogEntry,
  getEntry,
  getPublishedEntry,
  listEntries,
  listPublishedEntries,
  publishChangelogEntry,
  removeChangelogEntry,
} from './changelog.service.js';

const TAG = 'Changelog';

const CREATE_NOTE =
  'Suggestion ids that are not the business’s own are a 422 `UNKNOWN_SUGGESTION`. The body is Markdown, ' +
  'rendered by the service into `body_html`; raw HTML is shown as text. A draft unless `publish: true`.';

/**
 * /businesses/:business_id/changelog: the team writes entries (owners, admins and write keys; members
 * read), drafts included; /api/v1/changelog: what was published, and a write key may add an entry
 * (docs/changelog.md).
 */
export const changelogFeature = resourceFeature({
  path: '/changelog',
  tag: {
    name: TAG,
    description: 'What the business shipped, in Markdown, with the suggestions it answers; their followers hear of it',
  },
  resource: 'Changelog entry',
  noun: 'changelog entry',
  plural: 'changelog entries',
  access: { read: 'read', write: 'write' },
  schema: changelogEntrySchema,
  present: toChangelogEntryResponse,
  list: {
    operationId: 'listBusinessChangelog',
    summary: 'List the changelog entries, drafts included (dashboard)',
    description: 'Drafts first, then the published entries, newest first (`order=asc` turns both round).',
    query: listChangelogOffsetQuery,
    json: changelogOffsetPageSchema,
    run: ({ principal, query: { limit, offset, order }, db }) =>
      listEntries(db, principal.businessId, { sort: 'created_at', order, limit, offset }),
  },
  create: {
    operationId: 'createBusinessChangelogEntry',
    summary: 'Write a changelog entry (dashboard)',
    description: CREATE_NOTE,
    body: createChangelogBody,
    errors: [422],
    run: ({ principal, body, db }) => createChangelogEntry(db, principal, body),
  },
  get: {
    operationId: 'getBusinessChangelogEntry',
    summary: 'Read a changelog entry, draft or published (dashboard)',
    run: ({ principal, id, db }) => getEntry(db, principal.businessId, id),
  },
  update: {
    operationId: 'updateChangelogEntry',
    summary: 'Change a changelog entry',
    description:
      'A published entry’s change is a `changelog.updated` event; its followers are not emailed again. ' +
      'Suggestion ids that are not the business’s own are a 422.',
    body: updateChangelogBody,
    errors: [422],
    run: ({ principal, body, id, db }) => changeChangelogEntry(db, principal, id, body),
  },
  remove: {
    operationId: 'deleteChangelogEntry',
    summary: 'Delete a changelog entry',
    description: 'A published entry’s deletion is a `changelog.deleted` event; it leaves the page and the feed.',
    run: ({ principal, id, db }) => removeChangelogEntry(db, principal, id),
  },
  more: [
    defineRoute({
      method: 'post',
      path: '/businesses/:business_id/changelog/:id/publish',
      operationId: 'publishChangelogEntry',
      summary: 'Publish a changelog entry',
      description:
        'Shows the entry on the public page, in its Atom feed and in `/api/v1/changelog`, and publishes ' +
        '`changelog.published`. `complete_suggestions: true` also moves its suggestions to `completed` ' +
        '(each a status change with its own event). Unless `notify_followers` is false, each confirmed ' +
        'follower of its suggestions gets one email about it within a minute, however many of them it names, ' +
        'within `FOLLOWER_EMAILS_PER_HOUR`. An entry already published is a 409.',
      tag: TAG,
      guard: 'business',
      action: 'write',
      resource: 'Changelog entry',
      body: publishChangelogBody,
      errors: [409],
      responses: [{ status: 200, description: 'The published entry', json: changelogEntrySchema }],
      handler: async ({ principal, id, body, db }) =>
        ok(toChangelogEntryResponse(await publishChangelogEntry(db, principal, id, body))),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/changelog',
      operationId: 'listChangelog',
      summary: 'List the published changelog',
      description: 'Published entries only, newest first (`order=asc`: oldest first). Drafts are never listed.',
      tag: TAG,
      guard: 'api_key',
      action: 'read',
      query: listChangelogQuery,
      responses: [{ status: 200, description: 'A page of published entries', json: changelogPageSchema }],
      handler: async ({ principal, query: { page, limit, order }, db }) => {
        const { rows, total } = await listPublishedEntries(db, principal.businessId, {
          order,
          limit,
          offset: (page - 1) * limit,
        });
        return ok(pageEnvelope(rows.map(toChangelogEntryResponse), total, page, limit));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/changelog/:id',
      operationId: 'getChangelogEntry',
      summary: 'Read a published changelog entry',
      description: 'A draft is a 404, as an unknown id.',
      tag: TAG,
      guard: 'api_key',
      action: 'read',
      resource: 'Changelog entry',
      responses: [{ status: 200, description: 'The entry', json: changelogEntrySchema }],
      handler: async ({ principal, id, db }) =>
        ok(toChangelogEntryResponse(await getPublishedEntry(db, principal.businessId, id))),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/changelog',
      operationId: 'createChangelogEntry',
      summary: 'Write a changelog entry',
      description: `${CREATE_NOTE} Needs a write key. Publish a draft with \`POST /businesses/{business_id}/changelog/{id}/publish\`.`,
      tag: TAG,
      guard: 'api_key',
      action: 'write',
      body: createChangelogBody,
      errors: [422],
      responses: [{ status: 201, description: 'The new entry', json: changelogEntrySchema }],
      handler: async ({ principal, body, db }) =>
        created(toChangelogEntryResponse(await createChangelogEntry(db, principal, body))),
    }),
  ],
});
