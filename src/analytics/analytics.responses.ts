import { z } from 'zod';
import { timestamp } from '../http/responses.js';
import { issueStatus, sentiment, suggestionStatus, uuid } from '../shared/schemas.js';

const count = z.int().min(0);

const statusCounts = <S extends z.ZodEnum>(status: S) =>
  z.object({
    total: count,
    by_status: z.record(status, count).meta({ description: 'Every status, zero when nothing has it' }),
  });

const activitySchema = z.object({
  id: z.int(),
  type: z.string().meta({ examples: ['suggestion.created', 'issue.commented'] }),
  entity: z.object({ type: z.string(), id: uuid }),
  actor: z.object({
    type: z.enum(['api_key', 'user', 'system']),
    user_id: uuid.nullable(),
    name: z.string().nullable(),
    api_key_id: uuid.nullable(),
    api_key_name: z.string().nullable(),
  }),
  created_at: timestamp,
});

/** What analyticsOverview returns. */
export const analyticsOverviewSchema = z
  .object({
    suggestions: statusCounts(suggestionStatus),
    issues: statusCounts(issueStatus),
    sentiment: z
      .record(sentiment, z.object({ count, average_score: z.number().min(-1).max(1).nullable() }))
      .meta({ description: 'Suggestions per sentiment, with their average score (null when there are none)' }),
    created: z.object({
      last_7_days: z.object({ suggestions: count, issues: count }),
      last_30_days: z.object({ suggestions: count, issues: count }),
    }),
    recent_activity: z.array(activitySchema).max(20).meta({ description: 'Newest first' }),
  })
  .meta({ id: 'AnalyticsOverview', description: 'The dashboard summary' });
export type AnalyticsOverview = z.infer<typeof analyticsOverviewSchema>;
