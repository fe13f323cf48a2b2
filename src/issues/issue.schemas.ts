import { z } from 'zod';
import { isoInstant, issueStatus, pageParams, priority } from '../shared/schemas.js';
import { relevanceNeedsQuery, searchParam } from '../shared/search.js';

export const ISSUE_SORTS = ['created_at', 'updated_at', 'priority', 'status', 'resolved_at', 'relevance'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];

export const issueFilters = {
  status: issueStatus.optional(),
  priority: priority.optional(),
  since: isoInstant.optional(),
  q: searchParam.optional(),
};

export const listIssuesQuery = z
  .strictObject({
    ...pageParams,
    ...issueFilters,
    sort: z.enum(ISSUE_SORTS).default('created_at'),
  })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);
