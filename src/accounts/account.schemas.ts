import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { email } from '../shared/schemas.js';
import { newPassword, PASSWORD_MAX_LENGTH } from '../users/password-policy.js';

export const passwordResetBody = z.strictObject({ email }).meta({ examples: [{ email: EXAMPLE.ownerEmail }] });

export const passwordResetConfirmBody = z
  .strictObject({
    token: z.string().min(1).max(200).meta({ description: 'The reset token from the email' }),
    password: newPassword,
  })
  .meta({ examples: [{ token: 'fbr_Q4vN8sT1xK6mB3wR9pL2cZ7yH5dF0gJa', password: 'a fresh baguette daily' }] });
export type PasswordResetConfirmBody = z.output<typeof passwordResetConfirmBody>;

export const passwordChangeBody = z
  .strictObject({
    current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
    new_password: newPassword,
  })
  .meta({ examples: [{ current_password: 'croissants at seven', new_password: 'a fresh baguette daily' }] });
export type PasswordChangeBody = z.output<typeof passwordChangeBody>;
