import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { ROLES, uuid } from '../shared/schemas.js';
import { SESSION_PREFIX } from '../auth/session-token.js';

export const loginResponseSchema = z
  .object({
    token: z.string().startsWith(SESSION_PREFIX).meta({ description: 'Send as `Authorization: Bearer <token>`' }),
    expires_at: timestamp,
    user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
  })
  .meta({
    id: 'Session',
    description: 'A new 12-hour session',
    examples: [
      {
        token: 'fbs_Xq3vR8kLm2Np7sT0wY5zB1cD4fG6hJ9aK2eQ7uVi0oE',
        expires_at: EXAMPLE.sessionExpiresAt,
        user: { id: EXAMPLE.ownerId, email: EXAMPLE.ownerEmail, name: EXAMPLE.ownerName },
      },
    ],
  });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const currentSessionSchema = z
  .object({
    user: z.object({
      id: uuid,
      email: z.string().nullable(),
      name: z.string().nullable(),
      email_verified: z.boolean().meta({
        description:
          'Whether the user showed they control the email: by accepting an invite or resetting the password ' +
          'with a token that was emailed to it',
      }),
    }),
    expires_at: timestamp,
    memberships: z.array(z.object({ business_id: uuid, business_name: z.string(), role: z.enum(ROLES) })),
  })
  .meta({
    id: 'CurrentSession',
    description: "The session's user and the businesses they belong to",
    examples: [
      {
        user: { id: EXAMPLE.ownerId, email: EXAMPLE.ownerEmail, name: EXAMPLE.ownerName, email_verified: true },
        expires_at: EXAMPLE.sessionExpiresAt,
        memberships: [{ business_id: EXAMPLE.businessId, business_name: EXAMPLE.businessName, role: 'owner' }],
      },
    ],
  });
export type CurrentSession = z.infer<typeof currentSessionSchema>;
