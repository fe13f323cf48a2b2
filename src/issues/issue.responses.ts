import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema } from '../shared/responses.js';
import { ISSUE_COLUMN_MAP } from './issue.columns.js';

/** Spec 4.3 list items (no is_anonymous): what toIssueListItem returns. */
const issueListItem = z.object(fieldsOf(ISSUE_COLUMN_MAP, ['list']));

const listItemExample: z.infer<typeof issueListItem> = {
  id: EXAMPLE.issueId,
  title: 'Card reader rejects contactless payments',
  description: 'Since this morning the terminal at the counter declines every tap; chip and PIN still work.',
  status: 'assigned',
  priority: 'high',
  language: 'en',
  assignee_id: EXAMPLE.memberId,
  customer_name: null,
  customer_email: null,
  tags: ['card reader'],
  resolved_at: null,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.updatedAt,
};

export const issueListItemSchema = issueListItem.meta({
  id: 'IssueListItem',
  description: 'An issue as listed and exported',
  examples: [listItemExample],
});
export type IssueListItem = z.infer<typeof issueListItemSchema>;

/** The single-item read: spec 2.2, including is_anonymous. */
export const issueSchema = issueListItemSchema.extend(fieldsOf(ISSUE_COLUMN_MAP, ['read'])).meta({
  id: 'Issue',
  description: 'An issue, as read, created or updated',
  examples: [{ ...listItemExample, is_anonymous: true }],
});
export type Issue = z.infer<typeof issueSchema>;

export const issuePageSchema = pageEnvelopeSchema(issueListItemSchema, 'IssuePage');
export const issueOffsetPageSchema = offsetEnvelopeSchema(issueSchema, 'IssueOffsetPage');
