import { cachedList } from '../http/cached-list.js';
import { defineFamilies, readList } from '../http/families.js';
import { envelopeOf, listRequest } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toIssueListItem, toIssueResponse } from './issue.presenter.js';
import { issueOffsetPageSchema, issuePageSchema, issueSchema } from './issue.responses.js';
import {
  createIssueBody,
  issueListNotes,
  listIssuesOffsetQuery,
  listIssuesQuery,
  updateIssueBody,
} from './issue.schemas.js';
import { changeIssue, createIssue, getIssue, listIssues } from './issue.service.js';
import { changeTags } from './issue-tags.routes.js';

const v1 = { tag: 'Issues' };
const business = { tag: 'Dashboard issues' };

/** The business family also filters by assignee. */
const issueFilter = <F extends object>({ assignee_id, ...filter }: F & { assignee_id?: string }) => ({
  ...filter,
  assigneeId: assignee_id,
});

const list = defineFamilies({
  method: 'get',
  path: '/issues',
  action: 'read',
  queryNotes: issueListNotes,
  v1: {
    ...v1,
    operationId: 'listIssues',
    summary: 'List issues',
    query: listIssuesQuery,
    responses: [{ status: 200, description: 'One page of issues', json: issuePageSchema }],
    present: toIssueListItem,
  },
  business: {
    ...business,
    operationId: 'listBusinessIssues',
    summary: 'List issues (dashboard)',
    query: listIssuesOffsetQuery,
    responses: [{ status: 200, description: 'A slice of the issues', json: issueOffsetPageSchema }],
    present: toIssueResponse,
  },
  handler: ({ principal, query, services, db, family, present }) =>
    cachedList(services.lists, principal, `${family} issues ${JSON.stringify(query)}`, async () => {
      const { page, filter } = listRequest(query);
      // The cache stays exact whichever database answers (src/http/cached-list.ts).
      const result = await readList(services.reads, principal, { family, q: query.q, db }, (pool) =>
        listIssues(pool, principal.businessId, issueFilter(filter), page),
      );
      return envelopeOf(query, result.rows.map(present), result.total);
    }),
});

const read = defineFamilies({
  method: 'get',
  path: '/issues/:id',
  resource: 'Issue',
  action: 'read',
  responses: [{ status: 200, description: 'The issue', json: issueSchema }],
  v1: { ...v1, operationId: 'getIssue', summary: 'Read an issue' },
  business: { ...business, operationId: 'getBusinessIssue', summary: 'Read an issue (dashboard)' },
  handler: async ({ principal, id, db }) => ok(toIssueResponse(await getIssue(db, principal.businessId, id))),
});

/** /api/v1/issues: read, comment and tag. Issues are created in the business-scoped family. */
export const issueV1Routes: Feature = {
  tags: [
    {
      name: 'Issues',
      description: 'Problem reports and their comments, through an API key (`/api/v1`): read, comment and tag',
    },
  ],
  routes: [list.v1, read.v1, changeTags.v1],
};

/** /businesses/:business_id/issues: create and triage, paged with limit/offset. */
export const issueBusinessRoutes: Feature = {
  tags: [
    {
      name: 'Dashboard issues',
      description: 'Create and triage the issues of one business (`/businesses/{business_id}`)',
    },
  ],
  routes: [
    list.business,
    read.business,
    defineRoute({
      ...business,
      guard: 'business',
      method: 'post',
      path: '/businesses/:business_id/issues',
      operationId: 'createBusinessIssue',
      summary: 'Create an issue',
      description: 'An assignee must be a member of the business; an assigned issue starts as `assigned`.',
      action: 'write',
      body: createIssueBody,
      responses: [
        {
          status: 201,
          description: 'The new issue',
          json: issueSchema,
          headers: {
            Location: { description: 'The new issue: `/businesses/{business_id}/issues/{id}`', required: true },
          },
        },
      ],
      handler: async ({ baseUrl, principal, body, db }) => {
        const issue = await createIssue(db, principal, body);
        return created(toIssueResponse(issue), `${baseUrl}/issues/${issue.id}`);
      },
    }),
    defineRoute({
      ...business,
      guard: 'business',
      method: 'patch',
      path: '/businesses/:business_id/issues/:id',
      resource: 'Issue',
      operationId: 'updateBusinessIssue',
      summary: 'Change the status, priority or assignee of an issue',
      description:
        'Give at least one of `status`, `priority`, `assignee_id` (`null` unassigns). Assigning an `open` ' +
        'issue makes it `assigned`; `resolved` stamps `resolved_at`, reopening clears it.',
      action: 'update',
      accessNote:
        'A `member` may change `status` and `tags` alone; any other change needs the role `owner` or `admin`.',
      body: updateIssueBody,
      responses: [{ status: 200, description: 'The updated issue', json: issueSchema }],
      handler: async ({ principal, body, id, db }) => ok(toIssueResponse(await changeIssue(db, principal, id, body))),
    }),
    changeTags.business,
  ],
};
