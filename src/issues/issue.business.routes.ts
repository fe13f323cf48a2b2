import { cachedList } from '../http/cached-list.js';
import { offsetEnvelope } from '../http/params.js';
import { created, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toIssueResponse } from './issue.presenter.js';
import { issueOffsetPageSchema, issueSchema } from './issue.responses.js';
import { createIssueBody, issueListNotes, listIssuesOffsetQuery, updateIssueBody } from './issue.schemas.js';
import { changeIssue, createIssue, getIssue, listIssues } from './issue.service.js';

const common = { tag: 'Dashboard issues', guard: 'business' } as const;

/** /businesses/:business_id/issues: create and triage, paged with limit/offset. */
export const issueBusinessRoutes: Feature = {
  tags: [
    {
      name: 'Dashboard issues',
      description: 'Create and triage the issues of one business (`/businesses/{business_id}`)',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/issues',
      operationId: 'listBusinessIssues',
      summary: 'List issues (dashboard)',
      action: 'read',
      query: listIssuesOffsetQuery,
      queryNotes: issueListNotes,
      responses: [{ status: 200, description: 'A slice of the issues', json: issueOffsetPageSchema }],
      handler: ({ principal, query, services, db }) =>
        cachedList(services.lists, principal, `business issues ${JSON.stringify(query)}`, async () => {
          const { limit, offset, sort, order, assignee_id, ...filter } = query;
          const page = { sort, order, limit, offset };
          const result = await listIssues(db, principal.businessId, { ...filter, assigneeId: assignee_id }, page);
          return offsetEnvelope(result.rows.map(toIssueResponse), result.total, limit, offset);
        }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/issues/:id',
      resource: 'Issue',
      operationId: 'getBusinessIssue',
      summary: 'Read an issue (dashboard)',
      action: 'read',
      responses: [{ status: 200, description: 'The issue', json: issueSchema }],
      handler: async ({ principal, id, db }) => ok(toIssueResponse(await getIssue(db, principal.businessId, id))),
    }),
    defineRoute({
      ...common,
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
      handler: async ({ req, principal, body, db }) => {
        const issue = await createIssue(db, principal, body);
        return created(toIssueResponse(issue), `${req.baseUrl}/issues/${issue.id}`);
      },
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/businesses/:business_id/issues/:id',
      resource: 'Issue',
      operationId: 'updateBusinessIssue',
      summary: 'Change the status, priority or assignee of an issue',
      description:
        'Give at least one of `status`, `priority`, `assignee_id` (`null` unassigns). Assigning an `open` ' +
        'issue makes it `assigned`; `resolved` stamps `resolved_at`, reopening clears it.',
      action: 'update',
      accessNote: 'A `member` may change `status` alone; any other change needs the role `owner` or `admin`.',
      body: updateIssueBody,
      responses: [{ status: 200, description: 'The updated issue', json: issueSchema }],
      handler: async ({ principal, body, id, db }) => ok(toIssueResponse(await changeIssue(db, principal, id, body))),
    }),
  ],
};
