import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

export const sessionListSchema = z
  .object({
    data: z.array(
      z.object({
        id: uuid,
        current: z.boolean().meta({ description: 'The session this request came with' }),
        created_at: timestamp,
        expires_at: timestamp,
        last_used_at: timestamp.nullable().meta({ description: 'Kept to the minute; null until first used' }),
        ip: z.string().nullable().meta({ description: 'The client address it was last used from' }),
        device: z
          .string()
          .nullable()
          .meta({ description: 'Its User-Agent as a person reads it: "Firefox on Linux", "curl"' }),
      }),
    ),
  })
  .meta({
    id: 'SessionList',
    description: 'Your live sessions, the most recently used first',
    examples: [
      {
        data: [
          {
            id: EXAMPLE.ownerId,
            current: true,
            created_at: EXAMPLE.createdAt,
            expires_at: EXAMPLE.sessionExpiresAt,
            last_used_at: EXAMPLE.createdAt,
            ip: '203.0.113.7',
            device: 'Firefox on Linux',
          },
        ],
      },
    ],
  });
export type SessionList = z.infer<typeof sessionListSchema>;
