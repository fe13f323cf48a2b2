import { cachedList } from '../http/cached-list.js';
import { pageEnvelope } from '../http/params.js';
import { ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toIssueListItem, toIssueResponse } from './issue.presenter.js';
import { issuePageSchema, issueSchema } from './issue.responses.js';
import { issueListNotes, listIssuesQuery } from './issue.schemas.js';
import { getIssue, listIssues } from './issue.service.js';

const common = { tag: 'Issues', guard: 'api_key', action: 'read' } as const;

/** /api/v1/issues: read and comment. Issues are created in the business-scoped family. */
export const issueV1Routes: Feature = {
  tags: [
    {
      name: 'Issues',
      description: 'Problem reports and their comments, through an API key (`/api/v1`): read and comment',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/issues',
      operationId: 'listIssues',
      summary: 'List issues',
      query: listIssuesQuery,
      queryNotes: issueListNotes,
      responses: [{ status: 200, description: 'One page of issues', json: issuePageSchema }],
      handler: ({ principal, query, services, db }) =>
        cachedList(services.lists, principal, `issues ${JSON.stringify(query)}`, async () => {
          const { page, limit, sort, order, ...filter } = query;
          const offset = (page - 1) * limit;
          const result = await listIssues(db, principal.businessId, filter, {
            sort,
            order,
            limit,
            offset,
          });
          return pageEnvelope(result.rows.map(toIssueListItem), result.total, page, limit);
        }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/issues/:id',
      resource: 'Issue',
      operationId: 'getIssue',
      summary: 'Read an issue',
      responses: [{ status: 200, description: 'The issue', json: issueSchema }],
      handler: async ({ principal, id, db }) => ok(toIssueResponse(await getIssue(db, principal.businessId, id))),
    }),
  ],
};
