import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

/** An entry's limits: what a body may send and what a read may show. */
export const CHANGELOG_TITLE_MAX = 200;
export const CHANGELOG_BODY_MAX = 20_000;
export const CHANGELOG_SUGGESTIONS_MAX = 50;

export interface ChangelogEntryRow {
  id: string;
  title: string;
  body: string;
  body_html: string;
  suggestion_ids: string[];
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of a changelog entry, as both families' reads show them: the select list, presenter and schema. */
export const CHANGELOG_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  title: { shownIn: 'read', schema: z.string().max(CHANGELOG_TITLE_MAX).meta({ description: 'One line' }) },
  body: {
    shownIn: 'read',
    schema: z.string().max(CHANGELOG_BODY_MAX).meta({ description: 'Markdown (CommonMark), as written' }),
  },
  body_html: {
    shownIn: 'read',
    schema: z.string().meta({
      description:
        'The body rendered by the service: headings, lists, emphasis, code, quotes and links to http, https and ' +
        'mailto only. Raw HTML in the body is shown as text, never passed through; safe to put in a page as it is',
    }),
  },
  suggestion_ids: {
    shownIn: 'read',
    schema: z
      .array(uuid)
      .max(CHANGELOG_SUGGESTIONS_MAX)
      .meta({ description: 'The suggestions this entry answers, in the order given' }),
  },
  published_at: {
    shownIn: 'read',
    schema: timestamp.nullable().meta({ description: 'When it was published; null while it is a draft' }),
    instant: true,
  },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  updated_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<ChangelogEntryRow, 'read'>;
