import { z } from 'zod';
import { timestamp } from '../shared/responses.js';

export const followerListSchema = z
  .object({
    data: z.array(
      z.object({
        email: z.string(),
        confirmed_at: timestamp.meta({ description: 'When the address confirmed the follow' }),
      }),
    ),
    total: z.int().min(0).meta({ description: 'How many are listed: the confirmed followers, at most 1000' }),
  })
  .meta({
    id: 'FollowerList',
    description: 'The confirmed followers of a suggestion, oldest first',
    examples: [{ data: [{ email: 'ana.lima@example.com', confirmed_at: '2026-01-31T10:15:00.000Z' }], total: 1 }],
  });
