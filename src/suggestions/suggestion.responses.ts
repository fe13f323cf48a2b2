import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema, timestamp } from '../shared/responses.js';
import { priority, sentiment, suggestionStatus, uuid, visibility } from '../shared/schemas.js';
import type { ReviewState } from './suggestion.repository.js';
import { SUGGESTION_CONTENT_MAX } from './suggestion.schemas.js';

const REVIEW_STATES = ['not_required', 'pending', 'approved', 'rejected'] as const satisfies readonly ReviewState[];

/** Spec 4.2 list items, field by field (no is_anonymous): what toSuggestionListItem returns. */
const suggestionListItem = z.object({
  id: uuid,
  content: z.string().max(SUGGESTION_CONTENT_MAX),
  status: suggestionStatus,
  priority,
  sentiment,
  sentiment_score: z.number().min(-1).max(1).meta({ description: 'AFINN-165 average per word / 5, 4 decimals' }),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  upvote_count: z.int().min(0),
  created_at: timestamp,
  updated_at: timestamp,
});

const listItemExample: z.infer<typeof suggestionListItem> = {
  id: EXAMPLE.suggestionId,
  content: 'Love the new terrace! Could you add oat milk for the flat whites?',
  status: 'reviewing',
  priority: 'medium',
  sentiment: 'positive',
  sentiment_score: 0.05,
  customer_name: 'Ana Lima',
  customer_email: 'ana.lima@example.com',
  upvote_count: 4,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.updatedAt,
};

export const suggestionListItemSchema = suggestionListItem.meta({
  id: 'SuggestionListItem',
  description: 'A suggestion as listed and exported',
  examples: [listItemExample],
});
export type SuggestionListItem = z.infer<typeof suggestionListItemSchema>;

/** The single-item read: the list fields plus is_anonymous (spec 2.1). */
export const suggestionSchema = suggestionListItemSchema
  .extend({
    is_anonymous: z.boolean().meta({ description: 'True when neither customer_name nor customer_email was given' }),
  })
  .meta({
    id: 'Suggestion',
    description: 'A suggestion, as read, created or updated',
    examples: [{ ...listItemExample, is_anonymous: false }],
  });
export type Suggestion = z.infer<typeof suggestionSchema>;

/** The business-scoped family also shows what the dashboard manages. */
export const suggestionDashboardSchema = suggestionSchema
  .extend({
    visibility,
    review_state: z.enum(REVIEW_STATES),
    location_id: uuid.nullable(),
  })
  .meta({
    id: 'DashboardSuggestion',
    description: 'A suggestion with its visibility, review state and location',
    examples: [
      {
        ...listItemExample,
        is_anonymous: false,
        visibility: 'public',
        review_state: 'approved',
        location_id: EXAMPLE.locationId,
      },
    ],
  });
export type SuggestionDashboard = z.infer<typeof suggestionDashboardSchema>;

export const suggestionPageSchema = pageEnvelopeSchema(suggestionListItemSchema, 'SuggestionPage');
export const suggestionOffsetPageSchema = offsetEnvelopeSchema(suggestionDashboardSchema, 'DashboardSuggestionPage');
