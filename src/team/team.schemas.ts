import { z } from 'zod';
import { email, ROLES, text } from '../shared/schemas.js';

export const inviteBody = z.strictObject({
  email,
  role: z.enum(ROLES).default('member'),
});
export type InviteBody = z.output<typeof inviteBody>;

export const acceptInviteBody = z.strictObject({
  token: z.string().min(1).max(200),
  name: text(200),
  password: z.string().min(8, 'must be at least 8 characters').max(200),
});
export type AcceptInviteBody = z.output<typeof acceptInviteBody>;
