import { z } from 'zod';
import { ROADMAP_STATUSES } from '../businesses/business.schemas.js';
import { exampleOf } from '../shared/responses.js';
import { suggestionListItemSchema } from '../suggestions/suggestion.responses.js';

const example = exampleOf(suggestionListItemSchema) as Record<string, unknown>;

/** One column of the roadmap: a status, its heading, its exact total and its first 20 by votes. */
export const roadmapColumnSchema = z
  .object({
    status: z.enum(ROADMAP_STATUSES),
    title: z.string().meta({ description: 'The column’s heading, as the public roadmap shows it' }),
    total: z.int().min(0).meta({ description: 'How many suggestions the column holds, exactly' }),
    data: z
      .array(suggestionListItemSchema)
      .max(20)
      .meta({ description: 'Its first 20 suggestions, the most voted first (then the newest)' }),
  })
  .meta({
    id: 'RoadmapColumn',
    description: 'A column of the roadmap',
    examples: [
      { status: 'in_progress', title: 'In progress', total: 1, data: [{ ...example, status: 'in_progress' }] },
    ],
  });

export const roadmapSchema = z
  .object({
    columns: z.array(roadmapColumnSchema).min(1).max(ROADMAP_STATUSES.length),
  })
  .meta({
    id: 'Roadmap',
    description: 'The public roadmap: one column per status of the business’s `roadmap_statuses`, in their order',
    examples: [{ columns: [exampleOf(roadmapColumnSchema)] }],
  });
export type Roadmap = z.infer<typeof roadmapSchema>;
