import type { Feature } from '../openapi/operation.js';
import { issueOffsetPageSchema, issuePageSchema, issueSchema } from './issue.responses.js';
import { createIssueBody, listIssuesOffsetQuery, listIssuesQuery, updateIssueBody } from './issue.schemas.js';

const listNotes = {
  since: 'Only issues created strictly after this instant (a date alone: midnight UTC)',
  q: 'Full-text search in the title and description: every word, as a prefix',
  sort: '`relevance` ranks by the search and needs `q`; ties are broken by id',
};

export const issueDocs: Feature = {
  tags: [
    {
      name: 'Issues',
      description: 'Problem reports and their comments, through an API key (`/api/v1`): read and comment',
    },
    {
      name: 'Dashboard issues',
      description: 'Create and triage the issues of one business (`/businesses/{business_id}`)',
    },
  ],
  operations: [
    {
      method: 'get',
      path: '/api/v1/issues',
      operationId: 'listIssues',
      summary: 'List issues',
      tag: 'Issues',
      guard: 'api_key',
      action: 'read',
      query: listIssuesQuery,
      queryNotes: listNotes,
      responses: [{ status: 200, description: 'One page of issues', json: issuePageSchema }],
    },
    {
      method: 'get',
      path: '/api/v1/issues/:id',
      operationId: 'getIssue',
      summary: 'Read an issue',
      tag: 'Issues',
      guard: 'api_key',
      action: 'read',
      responses: [{ status: 200, description: 'The issue', json: issueSchema }],
    },
    {
      method: 'get',
      path: '/businesses/:business_id/issues',
      operationId: 'listBusinessIssues',
      summary: 'List issues (dashboard)',
      tag: 'Dashboard issues',
      guard: 'business',
      action: 'read',
      query: listIssuesOffsetQuery,
      queryNotes: listNotes,
      responses: [{ status: 200, description: 'A slice of the issues', json: issueOffsetPageSchema }],
    },
    {
      method: 'get',
      path: '/businesses/:business_id/issues/:id',
      operationId: 'getBusinessIssue',
      summary: 'Read an issue (dashboard)',
      tag: 'Dashboard issues',
      guard: 'business',
      action: 'read',
      responses: [{ status: 200, description: 'The issue', json: issueSchema }],
    },
    {
      method: 'post',
      path: '/businesses/:business_id/issues',
      operationId: 'createBusinessIssue',
      summary: 'Create an issue',
      description: 'An assignee must be a member of the business; an assigned issue starts as `assigned`.',
      tag: 'Dashboard issues',
      guard: 'business',
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
    },
    {
      method: 'patch',
      path: '/businesses/:business_id/issues/:id',
      operationId: 'updateBusinessIssue',
      summary: 'Change the status, priority or assignee of an issue',
      description:
        'Give at least one of `status`, `priority`, `assignee_id` (`null` unassigns). Assigning an `open` ' +
        'issue makes it `assigned`; `resolved` stamps `resolved_at`, reopening clears it.',
      tag: 'Dashboard issues',
      guard: 'business',
      action: 'change_status',
      accessNote: 'A `member` may change `status` alone; any other change needs the role `owner` or `admin`.',
      body: updateIssueBody,
      responses: [{ status: 200, description: 'The updated issue', json: issueSchema }],
    },
  ],
};
