import { z } from 'zod';
import { timestamp } from '../http/responses.js';
import { ROLES, uuid } from '../shared/schemas.js';
import { SESSION_PREFIX } from './session-token.js';

export const loginResponseSchema = z
  .object({
    token: z.string().startsWith(SESSION_PREFIX).meta({ description: 'Send as `Authorization: Bearer <token>`' }),
    expires_at: timestamp,
    user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
  })
  .meta({ id: 'Session', description: 'A new 12-hour session' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const currentSessionSchema = z
  .object({
    user: z.object({ id: uuid, email: z.string().nullable(), name: z.string().nullable() }),
    expires_at: timestamp,
    memberships: z.array(z.object({ business_id: uuid, business_name: z.string(), role: z.enum(ROLES) })),
  })
  .meta({ id: 'CurrentSession', description: "The session's user and the businesses they belong to" });
export type CurrentSession = z.infer<typeof currentSessionSchema>;
