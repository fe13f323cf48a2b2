import { z } from 'zod';
import { offsetEnvelopeSchema, pageEnvelopeSchema, timestamp } from '../http/responses.js';
import { priority, sentiment, suggestionStatus, uuid, visibility } from '../shared/schemas.js';
import type { ReviewState } from './suggestion.repository.js';
import { SUGGESTION_CONTENT_MAX } from './suggestion.schemas.js';

const REVIEW_STATES = ['not_required', 'pending', 'approved', 'rejected'] as const satisfies readonly ReviewState[];

/** Spec 4.2 list items, field by field (no is_anonymous): what toSuggestionListItem returns. */
export const suggestionListItemSchema = z
  .object({
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
  })
  .meta({ id: 'SuggestionListItem', description: 'A suggestion as listed and exported' });
export type SuggestionListItem = z.infer<typeof suggestionListItemSchema>;

/** The single-item read: the list fields plus is_anonymous (spec 2.1). */
export const suggestionSchema = suggestionListItemSchema
  .extend({
    is_anonymous: z.boolean().meta({ description: 'True when neither customer_name nor customer_email was given' }),
  })
  .meta({ id: 'Suggestion', description: 'A suggestion, as read, created or updated' });
export type Suggestion = z.infer<typeof suggestionSchema>;

/** The business-scoped family also shows what the dashboard manages. */
export const suggestionDashboardSchema = suggestionSchema
  .extend({
    visibility,
    review_state: z.enum(REVIEW_STATES),
    location_id: uuid.nullable(),
  })
  .meta({ id: 'DashboardSuggestion', description: 'A suggestion with its visibility, review state and location' });
export type SuggestionDashboard = z.infer<typeof suggestionDashboardSchema>;

export const suggestionPageSchema = pageEnvelopeSchema(suggestionListItemSchema, 'SuggestionPage');
export const suggestionOffsetPageSchema = offsetEnvelopeSchema(suggestionDashboardSchema, 'DashboardSuggestionPage');
