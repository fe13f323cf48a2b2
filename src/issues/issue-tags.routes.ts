import { defineFamilies } from '../http/families.js';
import { ok } from '../http/reply.js';
import { changeItemTagsBody } from '../tags/tag.schemas.js';
import { toIssueResponse } from './issue.presenter.js';
import { issueSchema } from './issue.responses.js';
import { changeIssueTags } from './issue.service.js';

// Tagging is triage, like a status: members may, and so may write keys, in both families: the one
// write of /api/v1/issues besides comments (src/auth/authorize.ts).
export const changeTags = defineFamilies({
  method: 'post',
  path: '/issues/:id/tags',
  resource: 'Issue',
  action: 'tag_items',
  params: { id: 'The issue; a malformed, unknown or other business’s id is a 404' },
  description:
    'Adds the tags named in `add` and takes off those in `remove` (by name, ignoring case), leaving its ' +
    'other tags as they are; `tags` on PATCH sets the whole list instead. A name the business has not ' +
    'defined is a 422 naming it. A change is an `issue.updated` event with `changes.tags` (`{from, to}`, ' +
    'the whole lists); no change records nothing.',
  errors: [422],
  responses: [{ status: 200, description: 'The issue', json: issueSchema }],
  v1: {
    tag: 'Issues',
    operationId: 'changeIssueTags',
    summary: 'Add or remove tags on an issue',
    body: changeItemTagsBody,
  },
  business: {
    tag: 'Dashboard issues',
    operationId: 'changeBusinessIssueTags',
    summary: 'Add or remove tags on an issue (dashboard)',
    body: changeItemTagsBody,
  },
  handler: async ({ principal, body, id, db }) => ok(toIssueResponse(await changeIssueTags(db, principal, id, body))),
});
