import { z } from 'zod';
import { offsetEnvelopeSchema, pageEnvelopeSchema, timestamp } from '../http/responses.js';
import { issueStatus, priority, uuid } from '../shared/schemas.js';

/** Spec 4.3 list items, field by field (no is_anonymous): what toIssueListItem returns. */
export const issueListItemSchema = z
  .object({
    id: uuid,
    title: z.string(),
    description: z.string(),
    status: issueStatus,
    priority,
    assignee_id: uuid.nullable().meta({ description: 'Null when unassigned' }),
    customer_name: z.string().nullable(),
    customer_email: z.string().nullable(),
    resolved_at: timestamp.nullable().meta({ description: 'Null until resolved' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'IssueListItem', description: 'An issue as listed and exported' });
export type IssueListItem = z.infer<typeof issueListItemSchema>;

/** The single-item read: spec 2.2, including is_anonymous. */
export const issueSchema = issueListItemSchema
  .extend({ is_anonymous: z.boolean() })
  .meta({ id: 'Issue', description: 'An issue, as read, created or updated' });
export type Issue = z.infer<typeof issueSchema>;

export const issuePageSchema = pageEnvelopeSchema(issueListItemSchema, 'IssuePage');
export const issueOffsetPageSchema = offsetEnvelopeSchema(issueSchema, 'IssueOffsetPage');
