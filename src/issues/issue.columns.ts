import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { itemTags } from '../shared/tags.js';
import { issueStatus, priority, uuid, type IssueStatus, type Priority } from '../shared/schemas.js';

export interface IssueRow {
  id: string;
  title: string;
  description: string;
  status: IssueStatus;
  priority: Priority;
  /** The title and description's language (ISO 639-1), detected when written (migrations/0057). */
  language: string | null;
  assignee_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  /** Tag names in the tags' own spelling, alphabetically (migrations/0026_tags.sql). */
  tags: string[];
  is_anonymous: boolean;
  location_id: string | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Every column of an issue, in the order its reads show them, and the view that adds each: `list`
 * (spec 4.3, also exported) and `read` (the single-item read, spec 2.2). Presenters, response
 * schemas, the select list, the export's records and the event object all come from here.
 */
export const ISSUE_COLUMN_MAP = {
  id: { shownIn: 'list', schema: uuid },
  title: { shownIn: 'list', schema: z.string() },
  description: { shownIn: 'list', schema: z.string() },
  status: { shownIn: 'list', schema: issueStatus },
  priority: { shownIn: 'list', schema: priority },
  language: {
    shownIn: 'list',
    schema: z
      .string()
      .regex(/^[a-z]{2}$/)
      .nullable()
      .meta({
        description:
          'The title and description’s language (ISO 639-1), detected when written or edited; null when the ' +
          'detector is not sure',
        examples: ['de'],
      }),
  },
  assignee_id: { shownIn: 'list', schema: uuid.nullable().meta({ description: 'Null when unassigned' }) },
  customer_name: { shownIn: 'list', schema: z.string().nullable() },
  customer_email: { shownIn: 'list', schema: z.string().nullable() },
  tags: { shownIn: 'list', schema: itemTags },
  is_anonymous: { shownIn: 'read', schema: z.boolean() },
  location_id: { shownIn: null }, // stored, but no read of spec 2.2 or 4.3 shows it
  resolved_at: {
    shownIn: 'list',
    schema: timestamp.nullable().meta({ description: 'Null until resolved' }),
    instant: true,
  },
  created_at: { shownIn: 'list', schema: timestamp, instant: true },
  updated_at: { shownIn: 'list', schema: timestamp, instant: true },
} satisfies ColumnMap<IssueRow, 'list' | 'read'>;
