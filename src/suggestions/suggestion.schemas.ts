import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import {
  email,
  isoInstant,
  nullToAbsent,
  optionalOneLine,
  offsetParams,
  pageParams,
  patchBody,
  priority,
  sentiment,
  suggestionStatus,
  text,
  uuid,
  visibility,
} from '../shared/schemas.js';
import { relevanceNeedsQuery, searchParam } from '../shared/search.js';
import { TAG_FILTER_NOTE, tagFilter, tagNames } from '../tags/tag.schemas.js';
import { SUGGESTION_CONTENT_MAX } from './suggestion.columns.js';
import { SUGGESTION_SORTS } from './suggestion.repository.js';

export const CUSTOMER_NAME_MAX = 200;

export const suggestionFilters = {
  status: suggestionStatus.optional(),
  priority: priority.optional(),
  sentiment: sentiment.optional(),
  lang: z
    .string()
    .regex(/^[a-z]{2}$/)
    .optional()
    .meta({ description: 'Only those whose content was detected in this language (ISO 639-1, `language`)' }),
  since: isoInstant.optional(),
  include_merged: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
};

const listFields = {
  ...suggestionFilters,
  q: searchParam.optional(),
  tag: tagFilter.optional(),
  sort: z.enum(SUGGESTION_SORTS).default('created_at'),
};

export const listSuggestionsQuery = z
  .strictObject({ ...pageParams, ...listFields })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);

/** The business-scoped family pages with limit/offset. */
export const listSuggestionsOffsetQuery = z
  .strictObject({ ...offsetParams, ...listFields })
  .refine(relevanceNeedsQuery.check, relevanceNeedsQuery.issue);

export const createSuggestionBody = z
  .strictObject({
    content: text(SUGGESTION_CONTENT_MAX),
    visibility: visibility.default('internal'),
    status: suggestionStatus.default('pending'),
    priority: priority.default('medium'),
    customer_name: nullToAbsent(optionalOneLine(CUSTOMER_NAME_MAX)),
    customer_email: nullToAbsent(email.optional()),
    location_id: nullToAbsent(uuid.optional()),
    tags: tagNames.default([]),
  })
  .meta({
    examples: [
      {
        content: 'Love the new terrace! Could you add oat milk for the flat whites?',
        customer_name: 'Ana Lima',
        customer_email: 'ana.lima@example.com',
        location_id: EXAMPLE.locationId,
        tags: ['terrace'],
      },
    ],
  });
export type CreateSuggestionBody = z.output<typeof createSuggestionBody>;

/** The dashboard may also publish or hide a suggestion and decide a pending review. */
export const updateSuggestionDashboardBody = patchBody({
  status: suggestionStatus.optional(),
  priority: priority.optional(),
  visibility: visibility.optional(),
  review: z.enum(['approve', 'reject']).optional(),
  tags: tagNames.optional(),
}).meta({ examples: [{ visibility: 'public', review: 'approve' }] });
export type UpdateSuggestionDashboardBody = z.output<typeof updateSuggestionDashboardBody>;

export const updateSuggestionBody = patchBody({
  status: suggestionStatus.optional(),
  priority: priority.optional(),
  tags: tagNames.optional(),
}).meta({ examples: [{ status: 'in_progress', priority: 'high' }] });

/** What the reference says of the list parameters beyond their schemas. */
export const suggestionListNotes = {
  since: 'Only suggestions created strictly after this instant (a date alone: midnight UTC)',
  q: 'Full-text search in the content and customer name: every word, as a prefix (`cof` finds "coffee")',
  sort: '`relevance` ranks by the search and needs `q` (without it, a 400); ties are broken by id',
  include_merged: '`true` also lists suggestions merged into another (hidden by default), and counts them in `total`',
  tag: TAG_FILTER_NOTE,
};

export const suggestionCreatedHeaders = (path: string) => ({
  Location: { description: `The new suggestion: \`${path}/{id}\``, required: true },
});

export const replySuggestionBody = z
  .strictObject({
    content: text(SUGGESTION_CONTENT_MAX),
  })
  .meta({ examples: [{ content: 'Oat milk arrives on Monday. Thank you for asking!' }] });
