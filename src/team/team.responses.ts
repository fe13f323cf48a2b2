import { z } from 'zod';
import { timestamp } from '../http/responses.js';
import { ROLES, uuid } from '../shared/schemas.js';

const role = z.enum(ROLES);

export const teamMemberSchema = z
  .object({ user_id: uuid, name: z.string().nullable(), email: z.string(), role, joined_at: timestamp })
  .meta({ id: 'TeamMember', description: 'A member of the business' });
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamInviteSchema = z
  .object({ id: uuid, email: z.string(), role, created_at: timestamp, expires_at: timestamp })
  .meta({ id: 'TeamInvite', description: 'A pending invite' });
export type TeamInvite = z.infer<typeof teamInviteSchema>;

export const teamSchema = z
  .object({ members: z.array(teamMemberSchema), invites: z.array(teamInviteSchema) })
  .meta({ id: 'Team', description: 'Members and pending invites' });
export type Team = z.infer<typeof teamSchema>;

export const createdInviteSchema = teamInviteSchema
  .extend({
    token: z.string().meta({ description: 'The one-time token for POST /invites/accept: shown this once only' }),
  })
  .meta({ id: 'CreatedInvite', description: 'A new invite, with its one-time token' });
export type CreatedInvite = z.infer<typeof createdInviteSchema>;

export const acceptedInviteSchema = z
  .object({
    user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
    business_id: uuid,
    role,
  })
  .meta({ id: 'AcceptedInvite', description: 'The user who joined, and the membership they got' });
export type AcceptedInvite = z.infer<typeof acceptedInviteSchema>;
