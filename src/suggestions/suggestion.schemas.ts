import { z } from 'zod';
import {
  email,
  isoInstant,
  optionalText,
  offsetParams,
  pageParams,
  priority,
  sentiment,
  suggestionStatus,
  text,
  uuid,
  visibility,
} from '../shared/schemas.js';
import { relevanceNeedsQuery, searchParam } from '../shared/search.js';

export const SUGGESTION_CONTENT_MAX = 2000;
export const CUSTOMER_NAME_MAX = 200;

export const SUGGESTION_SORTS = [
  'created_at',
  'updated_at',
  'priority',
  'status',
  'upvote_count',
  'sentiment_score',
  'relevance',
] as const;

export const suggestionFilters = {
  status: suggestionStatus.optional(),
  priority: priority.optional(),
  sentiment: sentiment.optional(),
  since: isoInstant.optional(),
};

const listFields = {
  ...suggestionFilters,
  q: searchParam.optional(),
  sort: z.enum(SUGGESTION_SORTS).default('created_at'),
};

export const listSuggestionsQuery = z
  .strictObject({ ...pageParams, ...listFields })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);

/** The business-scoped family pages with limit/offset. */
export const listSuggestionsOffsetQuery = z
  .strictObject({ ...offsetParams, ...listFields })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);
export type ListSuggestionsQuery = z.output<typeof listSuggestionsQuery>;

const nullable = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => (value === null ? undefined : value));

export const createSuggestionBody = z.strictObject({
  content: text(SUGGESTION_CONTENT_MAX),
  visibility: visibility.default('internal'),
  status: suggestionStatus.default('pending'),
  priority: priority.default('medium'),
  customer_name: nullable(optionalText(CUSTOMER_NAME_MAX)),
  customer_email: nullable(email.optional()),
  location_id: nullable(uuid.optional()),
});
export type CreateSuggestionBody = z.output<typeof createSuggestionBody>;

/** The dashboard may also publish or hide a suggestion and decide a pending review. */
export const updateSuggestionDashboardBody = z
  .strictObject({
    status: suggestionStatus.optional(),
    priority: priority.optional(),
    visibility: visibility.optional(),
    review: z.enum(['approve', 'reject']).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of status, priority, visibility, review',
  });
export type UpdateSuggestionDashboardBody = z.output<typeof updateSuggestionDashboardBody>;

export const updateSuggestionBody = z
  .strictObject({
    status: suggestionStatus.optional(),
    priority: priority.optional(),
  })
  .refine((body) => body.status !== undefined || body.priority !== undefined, {
    message: 'give at least one of status, priority',
  });
export type UpdateSuggestionBody = z.output<typeof updateSuggestionBody>;
