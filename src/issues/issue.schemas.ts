import { z } from 'zod';
import {
  email,
  isoInstant,
  issueStatus,
  offsetParams,
  optionalText,
  pageParams,
  priority,
  text,
  uuid,
} from '../shared/schemas.js';
import { relevanceNeedsQuery, searchParam } from '../shared/search.js';

export const ISSUE_SORTS = ['created_at', 'updated_at', 'priority', 'status', 'resolved_at', 'relevance'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];

export const issueFilters = {
  status: issueStatus.optional(),
  priority: priority.optional(),
  since: isoInstant.optional(),
  q: searchParam.optional(),
};

const sort = z.enum(ISSUE_SORTS).default('created_at');

export const listIssuesQuery = z
  .strictObject({ ...pageParams, ...issueFilters, sort })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);

/** The business-scoped family pages with limit/offset and can filter by assignee. */
export const listIssuesOffsetQuery = z
  .strictObject({ ...offsetParams, ...issueFilters, assignee_id: uuid.optional(), sort })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);

export const ISSUE_TITLE_MAX = 200;
export const ISSUE_DESCRIPTION_MAX = 10_000;

const nullable = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => (value === null ? undefined : value));

export const createIssueBody = z.strictObject({
  title: text(ISSUE_TITLE_MAX),
  description: optionalText(ISSUE_DESCRIPTION_MAX).transform((value) => value ?? ''),
  priority: priority.default('medium'),
  customer_name: nullable(optionalText(200)),
  customer_email: nullable(email.optional()),
  assignee_id: nullable(uuid.optional()),
});
export type CreateIssueBody = z.output<typeof createIssueBody>;

/** `assignee_id: null` unassigns; leaving it out keeps the assignee. */
export const updateIssueBody = z
  .strictObject({
    status: issueStatus.optional(),
    priority: priority.optional(),
    assignee_id: uuid.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of status, priority, assignee_id',
  });
export type UpdateIssueBody = z.output<typeof updateIssueBody>;
