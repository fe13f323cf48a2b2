import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema } from '../shared/responses.js';
import { CHANGELOG_COLUMN_MAP } from './changelog.columns.js';

export const CHANGELOG_EXAMPLE = {
  id: '0194b3f8-4d21-7e3a-9b5c-2a6d8e0f1c74',
  title: 'Oat milk is here',
  body: 'You asked, we listened: **oat milk** at every counter.\n\n- No extra charge\n- Also for iced drinks',
  body_html:
    '<p>You asked, we listened: <strong>oat milk</strong> at every counter.</p>\n<ul>\n<li>No extra charge</li>\n' +
    '<li>Also for iced drinks</li>\n</ul>\n',
  suggestion_ids: [EXAMPLE.suggestionId],
  published_at: EXAMPLE.updatedAt,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.updatedAt,
};

/** What toChangelogEntryResponse returns. */
export const changelogEntrySchema = z.object(fieldsOf(CHANGELOG_COLUMN_MAP, ['read'])).meta({
  id: 'ChangelogEntry',
  description: 'What the business shipped: a title, a Markdown body (and its HTML), the suggestions it answers',
  examples: [CHANGELOG_EXAMPLE],
});
export type ChangelogEntry = z.infer<typeof changelogEntrySchema>;

export const changelogPageSchema = pageEnvelopeSchema(changelogEntrySchema, 'ChangelogPage');
export const changelogOffsetPageSchema = offsetEnvelopeSchema(changelogEntrySchema, 'ChangelogOffsetPage');
