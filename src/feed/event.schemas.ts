import { z } from 'zod';
import { EVENT_TYPES } from '../outbox/event.types.js';
import { queryInt } from '../shared/schemas.js';

/** `suggestion.updated,issue.updated`: one or more event types, comma-separated. */
const typeList = z
  .string()
  .transform((value) => value.split(',').map((type) => type.trim()))
  .pipe(z.array(z.enum(EVENT_TYPES)).min(1))
  .meta({ description: `Comma-separated event types: ${EVENT_TYPES.join(', ')}` });

export const listEventsQuery = z.strictObject({
  // Empty is the start, like absent: a script's first call passes `after=$CURSOR` before it has one.
  after: z.string().max(200).optional(),
  limit: queryInt(1, 100).default(50),
  type: typeList.optional(),
});
export type ListEventsQuery = z.output<typeof listEventsQuery>;
