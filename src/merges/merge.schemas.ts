import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { uuid } from '../shared/schemas.js';

/** The most suggestions one request merges. */
export const MERGE_SOURCES_MAX = 50;

export const mergeSuggestionsBody = z
  .strictObject({
    source_ids: z
      .array(uuid.transform((id) => id.toLowerCase()))
      .min(1)
      .max(MERGE_SOURCES_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id')
      .meta({ description: 'The suggestions to merge into this one, each of the business and not merged' }),
  })
  .meta({ examples: [{ source_ids: [EXAMPLE.otherSuggestionId] }] });
export type MergeSuggestionsBody = z.output<typeof mergeSuggestionsBody>;
