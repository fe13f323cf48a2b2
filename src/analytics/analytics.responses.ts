import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
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
    type: z.enum(['api_key', 'user', 'qr_code', 'system']).meta({
      description:
        "`qr_code`: a customer on that QR code's public page (feedback, a vote); `system`: the admin CLI or the seed command",
    }),
    user_id: uuid.nullable(),
    name: z.string().nullable(),
    api_key_id: uuid.nullable(),
    api_key_name: z.string().nullable(),
    qr_code_id: uuid.nullable(),
  }),
  created_at: timestamp,
});

/** What analyticsOverview returns. */
export const analyticsOverviewSchema = z
  .object({
    suggestions: statusCounts(suggestionStatus),
    issues: statusCounts(issueStatus),
    sentiment: z.record(sentiment, z.object({ count, average_score: z.number().min(-1).max(1).nullable() })).meta({
      description:
        'Suggestions per sentiment, with their average score (null when there are none); those no lexicon ' +
        'scored are not in `neutral` but in `sentiment_unscored`',
    }),
    sentiment_unscored: count.meta({
      description:
        'Suggestions no lexicon scored (a language without one, or none detected: `sentiment_lexicon` null), ' +
        'counted apart rather than as neutral',
    }),
    created: z.object({
      last_7_days: z.object({ suggestions: count, issues: count }),
      last_30_days: z.object({ suggestions: count, issues: count }),
    }),
    recent_activity: z.array(activitySchema).max(20).meta({ description: 'Newest first' }),
    public_page: z
      .object({
        last_30_days: z.object({
          scans: count,
          submissions: count,
          by_location: z
            .array(
              z.object({ location_id: uuid.nullable(), name: z.string().nullable(), scans: count, submissions: count }),
            )
            .meta({
              description: 'Locations with scans or feedback; `location_id: null` for codes and feedback with none',
            }),
        }),
      })
      .meta({ description: 'QR code scans (page opens) and feedback posted from the public page' }),
  })
  .meta({
    id: 'AnalyticsOverview',
    description: 'The dashboard summary',
    examples: [
      {
        suggestions: {
          total: 128,
          by_status: { pending: 41, reviewing: 12, in_progress: 9, completed: 57, rejected: 9 },
        },
        issues: { total: 23, by_status: { open: 4, assigned: 3, in_progress: 2, resolved: 11, closed: 3 } },
        sentiment: {
          positive: { count: 71, average_score: 0.2143 },
          neutral: { count: 32, average_score: 0 },
          negative: { count: 19, average_score: -0.1875 },
        },
        sentiment_unscored: 6,
        created: { last_7_days: { suggestions: 14, issues: 2 }, last_30_days: { suggestions: 52, issues: 7 } },
        recent_activity: [
          {
            id: 1042,
            type: 'suggestion.commented',
            entity: { type: 'suggestion', id: EXAMPLE.suggestionId },
            actor: {
              type: 'api_key',
              user_id: EXAMPLE.ownerId,
              name: EXAMPLE.ownerName,
              api_key_id: EXAMPLE.apiKeyId,
              api_key_name: 'Zapier sync',
              qr_code_id: null,
            },
            created_at: EXAMPLE.updatedAt,
          },
        ],
        public_page: {
          last_30_days: {
            scans: 312,
            submissions: 27,
            by_location: [{ location_id: EXAMPLE.locationId, name: 'Terrace', scans: 312, submissions: 27 }],
          },
        },
      },
    ],
  });
export type AnalyticsOverview = z.infer<typeof analyticsOverviewSchema>;
