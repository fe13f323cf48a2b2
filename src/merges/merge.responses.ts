import { z } from 'zod';
import { suggestionListItemSchema } from '../suggestions/suggestion.responses.js';
import { exampleOf } from '../shared/responses.js';

/** A likely duplicate: the suggestion as listed, and how alike it is. */
export const similarSuggestionSchema = suggestionListItemSchema
  .extend({
    similarity: z.number().min(0).max(1).meta({
      description:
        'How alike the contents are, from 0.6 to 1 (1 for the same text or the same subject words): the larger of trigram similarity and the share of subject words in common; 4 decimals',
    }),
  })
  .meta({
    id: 'SimilarSuggestion',
    description: 'A suggestion whose content is like the one asked about',
    examples: [{ ...(exampleOf(suggestionListItemSchema) as object), similarity: 0.6842 }],
  });
export type SimilarSuggestion = z.infer<typeof similarSuggestionSchema>;

export const similarSuggestionListSchema = z
  .object({
    data: z.array(similarSuggestionSchema).max(5),
  })
  .meta({
    id: 'SimilarSuggestionList',
    description: 'Likely duplicates, the most alike first: at most 5, none merged',
    examples: [{ data: [exampleOf(similarSuggestionSchema)] }],
  });
