import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf, timestamp } from '../shared/responses.js';
import { issueListItemSchema } from '../issues/issue.responses.js';
import { suggestionExportItemSchema } from '../suggestions/suggestion.responses.js';
import { EXPORT_LIMIT } from './export.schemas.js';

/** What jsonEncoder streams: `{data, total, truncated, exported_at}`. */
const exportEnvelope = (item: z.ZodType, id: string, what: string) =>
  z
    .object({
      data: z
        .array(item)
        .max(EXPORT_LIMIT)
        .meta({ description: `The first ${EXPORT_LIMIT} ${what}, newest first` }),
      total: z
        .int()
        .min(0)
        .meta({ description: `Every matching ${what.replace(/s$/, '')}, including any past the cap` }),
      truncated: z.boolean().meta({ description: `True when total is over ${EXPORT_LIMIT}` }),
      exported_at: timestamp,
    })
    .meta({
      id,
      description: `An export of ${what} as JSON`,
      examples: [{ data: [exampleOf(item)], total: 1, truncated: false, exported_at: EXAMPLE.updatedAt }],
    });

export const suggestionExportSchema = exportEnvelope(suggestionExportItemSchema, 'SuggestionExport', 'suggestions');
export const issueExportSchema = exportEnvelope(issueListItemSchema, 'IssueExport', 'issues');
