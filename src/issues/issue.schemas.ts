import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import {
  email,
  isoInstant,
  issueStatus,
  nullToAbsent,
  offsetParams,
  oneLine,
  optionalOneLine,
  optionalText,
  pageParams,
  patchBody,
  priority,
  uuid,
} from '../shared/schemas.js';
import { relevanceNeedsQuery, searchParam } from '../shared/search.js';
import { TAG_FILTER_NOTE, tagFilter, tagNames } from '../tags/tag.schemas.js';
import { ISSUE_SORTS } from './issue.repository.js';

export const issueFilters = {
  status: issueStatus.optional(),
  priority: priority.optional(),
  lang: z
    .string()
    .regex(/^[a-z]{2}$/)
    .optional()
    .meta({
      description: 'Only those whose title and description were detected in this language (ISO 639-1, `language`)',
    }),
  since: isoInstant.optional(),
  q: searchParam.optional(),
  tag: tagFilter.optional(),
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

export const createIssueBody = z
  .strictObject({
    title: oneLine(ISSUE_TITLE_MAX),
    description: optionalText(ISSUE_DESCRIPTION_MAX).transform((value) => value ?? ''),
    priority: priority.default('medium'),
    customer_name: nullToAbsent(optionalOneLine(200)),
    customer_email: nullToAbsent(email.optional()),
    assignee_id: nullToAbsent(uuid.optional()),
    tags: tagNames.default([]),
  })
  .meta({
    examples: [
      {
        title: 'Card reader rejects contactless payments',
        description: 'Since this morning the terminal at the counter declines every tap; chip and PIN still work.',
        priority: 'high',
        assignee_id: EXAMPLE.memberId,
        tags: ['card reader'],
      },
    ],
  });
export type CreateIssueBody = z.output<typeof createIssueBody>;

/**
 * `assignee_id: null` unassigns; leaving it out keeps the assignee. A new title or description detects
 * the issue's language again.
 */
export const updateIssueBody = patchBody({
  title: oneLine(ISSUE_TITLE_MAX).optional(),
  // empty (or only white space) clears it, as a create's does; absent keeps it
  description: optionalText(ISSUE_DESCRIPTION_MAX)
    .transform((value) => value ?? '')
    .optional(),
  status: issueStatus.optional(),
  priority: priority.optional(),
  assignee_id: uuid.nullable().optional(),
  tags: tagNames.optional(),
}).meta({ examples: [{ status: 'resolved' }] });
export type UpdateIssueBody = z.output<typeof updateIssueBody>;

/** What the reference says of the list parameters beyond their schemas. */
export const issueListNotes = {
  since: 'Only issues created strictly after this instant (a date alone: midnight UTC)',
  q: 'Full-text search in the title and description: every word, as a prefix',
  sort: '`relevance` ranks by the search and needs `q` (without it, a 400); ties are broken by id',
  tag: TAG_FILTER_NOTE,
};
