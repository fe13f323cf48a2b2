import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf, offsetEnvelopeSchema, pageEnvelopeSchema } from '../shared/responses.js';
import { SUGGESTION_COLUMN_MAP, suggestionReplySchema } from './suggestion.columns.js';

/** Spec 4.2 list items (no is_anonymous): what toSuggestionListItem returns. */
const suggestionListItem = z.object(fieldsOf(SUGGESTION_COLUMN_MAP, ['list']));

const listItemExample: z.infer<typeof suggestionListItem> = {
  id: EXAMPLE.suggestionId,
  content: 'Love the new terrace! Could you add oat milk for the flat whites?',
  status: 'reviewing',
  priority: 'medium',
  sentiment: 'positive',
  sentiment_score: 0.05,
  language: 'en',
  sentiment_lexicon: 'en',
  customer_name: 'Ana Lima',
  customer_email: 'ana.lima@example.com',
  upvote_count: 4,
  tags: ['terrace'],
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.updatedAt,
};

export const suggestionListItemSchema = suggestionListItem.meta({
  id: 'SuggestionListItem',
  description: 'A suggestion as listed and exported',
  examples: [listItemExample],
});
export type SuggestionListItem = z.infer<typeof suggestionListItemSchema>;

/** An exported suggestion: the list fields, then which suggestion it is merged into (null when none). */
export const suggestionExportItemSchema = suggestionListItemSchema
  .extend({ merged_into: SUGGESTION_COLUMN_MAP.merged_into.schema })
  .meta({
    id: 'SuggestionExportItem',
    description: 'A suggestion as exported',
    examples: [{ ...listItemExample, merged_into: null }],
  });

/** The single-item read: the list fields plus is_anonymous (spec 2.1). */
export const suggestionSchema = suggestionListItemSchema.extend(fieldsOf(SUGGESTION_COLUMN_MAP, ['read'])).meta({
  id: 'Suggestion',
  description: 'A suggestion, as read, created or updated',
  examples: [
    {
      ...listItemExample,
      is_anonymous: false,
      reply: exampleOf(suggestionReplySchema),
      follower_count: 2,
      merged_into: null,
    },
  ],
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** The business-scoped family also shows what the dashboard manages. */
export const suggestionDashboardSchema = suggestionSchema.extend(fieldsOf(SUGGESTION_COLUMN_MAP, ['dashboard'])).meta({
  id: 'DashboardSuggestion',
  description: 'A suggestion with its visibility, review state and location',
  examples: [
    {
      ...listItemExample,
      is_anonymous: false,
      visibility: 'public',
      review_state: 'approved',
      location_id: EXAMPLE.locationId,
      reply: null,
      follower_count: 0,
      merged_into: null,
    },
  ],
});
export type SuggestionDashboard = z.infer<typeof suggestionDashboardSchema>;

export const suggestionPageSchema = pageEnvelopeSchema(suggestionListItemSchema, 'SuggestionPage');
export const suggestionOffsetPageSchema = offsetEnvelopeSchema(suggestionDashboardSchema, 'DashboardSuggestionPage');
