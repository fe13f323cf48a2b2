import { z } from 'zod';
import { email, oneLine } from '../shared/schemas.js';

export const profileChangeBody = z
  .strictObject({ name: oneLine(200).nullable().meta({ description: 'Your display name; null clears it' }) })
  .meta({ examples: [{ name: 'Ana Silva' }] });
export type ProfileChangeBody = z.output<typeof profileChangeBody>;

export const emailChangeBody = z
  .strictObject({ email: email.meta({ description: 'The new address: a confirmation link goes to it' }) })
  .meta({ examples: [{ email: 'ana.silva@example.com' }] });

export const emailConfirmBody = z
  .strictObject({ token: z.string().min(1).max(200).meta({ description: 'The token from the email' }) })
  .meta({ examples: [{ token: 'fbe_Q4vN8sT1xK6mB3wR9pL2cZ7yH5dF0gJaQ4vN8sT1xK6' }] });
