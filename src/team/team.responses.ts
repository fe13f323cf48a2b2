import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { ROLES, uuid } from '../shared/schemas.js';

const role = z.enum(ROLES);

const memberExample = {
  user_id: EXAMPLE.memberId,
  name: EXAMPLE.memberName,
  email: EXAMPLE.memberEmail,
  role: 'admin',
  joined_at: EXAMPLE.createdAt,
} as const;
const inviteExample = {
  id: EXAMPLE.inviteId,
  email: 'lea@cafe-soleil.example',
  role: 'member',
  delivery: 'sent',
  created_at: EXAMPLE.createdAt,
  expires_at: EXAMPLE.inviteExpiresAt,
} as const;

export const teamMemberSchema = z
  .object({ user_id: uuid, name: z.string().nullable(), email: z.string(), role, joined_at: timestamp })
  .meta({ id: 'TeamMember', description: 'A member of the business', examples: [memberExample] });
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamInviteSchema = z
  .object({
    id: uuid,
    email: z.string(),
    role,
    delivery: z.enum(['pending', 'sent', 'failed']).meta({
      description:
        'The invite email: `pending` until the mail server accepts it (retried meanwhile), then `sent`; ' +
        '`failed` once retries are exhausted (cancel and invite again). In development mail mode `sent` ' +
        'means written to the log.',
    }),
    created_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'TeamInvite', description: 'A pending invite', examples: [inviteExample] });
export type TeamInvite = z.infer<typeof teamInviteSchema>;

export const teamSchema = z.object({ members: z.array(teamMemberSchema), invites: z.array(teamInviteSchema) }).meta({
  id: 'Team',
  description: 'Members and pending invites',
  examples: [
    {
      members: [
        {
          user_id: EXAMPLE.ownerId,
          name: EXAMPLE.ownerName,
          email: EXAMPLE.ownerEmail,
          role: 'owner',
          joined_at: EXAMPLE.createdAt,
        },
        memberExample,
      ],
      invites: [inviteExample],
    },
  ],
});
export type Team = z.infer<typeof teamSchema>;

export const createdInviteSchema = teamInviteSchema
  .extend({
    token: z
      .string()
      .optional()
      .meta({
        description:
          'Development mail mode only (no SMTP configured): the one-time token for POST /invites/accept, ' +
          'shown this once. With SMTP the token goes to the invitee’s email and nowhere else.',
      }),
  })
  .meta({
    id: 'CreatedInvite',
    description: 'A new invite; its token is emailed to the invitee',
    examples: [{ ...inviteExample, delivery: 'pending' }],
  });
export type CreatedInvite = z.infer<typeof createdInviteSchema>;

export const acceptedInviteSchema = z
  .object({
    user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
    business_id: uuid,
    role,
  })
  .meta({
    id: 'AcceptedInvite',
    description: 'The user who joined, and the membership they got',
    examples: [
      {
        user: { id: EXAMPLE.memberId, email: EXAMPLE.memberEmail, name: EXAMPLE.memberName },
        business_id: EXAMPLE.businessId,
        role: 'admin',
      },
    ],
  });
export type AcceptedInvite = z.infer<typeof acceptedInviteSchema>;
