import { z } from 'zod';
import { email, oneLine, ROLES } from '../shared/schemas.js';
import { newPassword } from '../users/password-policy.js';

export const inviteBody = z
  .strictObject({
    email,
    role: z.enum(ROLES).default('member'),
  })
  .meta({ examples: [{ email: 'lea@cafe-soleil.example', role: 'member' }] });
export type InviteBody = z.output<typeof inviteBody>;

export const acceptInviteBody = z
  .strictObject({
    token: z.string().min(1).max(200).meta({ description: 'The invite token from the email' }),
    name: oneLine(200).optional().meta({ description: 'Your name: only when the invite creates your account' }),
    password: newPassword.optional().meta({
      description:
        'Your password, 12 to 256 characters and not a common one: only when the invite creates your account',
    }),
  })
  .meta({
    examples: [
      { token: 'fbi_7Hk2pQ9wXc4mRt8sLb3nVz6yJd1fGa5e', name: 'Léa Bernard', password: 'oat milk on the terrace' },
    ],
  });
export type AcceptInviteBody = z.output<typeof acceptInviteBody>;

export const memberRoleBody = z.strictObject({ role: z.enum(ROLES) }).meta({ examples: [{ role: 'admin' }] });
