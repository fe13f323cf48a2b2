import { z } from 'zod';
import { SESSION_PREFIX } from '../auth/session-token.js';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { email, oneLine, uuid } from '../shared/schemas.js';
import { newPassword } from '../users/password-policy.js';

/** The first run's form, and a sign-up's: a business, its owner's name, email and password. */
export const newOwnerFields = {
  business_name: oneLine(200),
  name: oneLine(200),
  email,
  password: newPassword,
};

const newOwnerExample = {
  business_name: EXAMPLE.businessName,
  name: EXAMPLE.ownerName,
  email: EXAMPLE.ownerEmail,
  password: 'croissants at seven',
};

export const setupBody = z
  .strictObject({ token: z.string().max(200), ...newOwnerFields })
  .meta({ examples: [{ token: 'fbu_Q2x7vR8kLm2Np7sT0wY5zB1cD4fG6hJ9aK2eQ7uVi0o', ...newOwnerExample }] });
export type SetupBody = z.output<typeof setupBody>;

export const signUpBody = z.strictObject(newOwnerFields).meta({ examples: [newOwnerExample] });
export type SignUpBody = z.output<typeof signUpBody>;

export const signUpConfirmBody = z
  .strictObject({ token: z.string().max(200) })
  .meta({ examples: [{ token: 'fbn_Xq3vR8kLm2Np7sT0wY5zB1cD4fG6hJ9aK2eQ7uVi0oE' }] });

/** A business just made (the first run, a confirmed sign-up) and its owner's new session. */
export const newBusinessSessionSchema = z
  .object({
    business: z.object({ id: uuid, name: z.string() }),
    token: z.string().startsWith(SESSION_PREFIX).meta({ description: 'Send as `Authorization: Bearer <token>`' }),
    expires_at: timestamp,
    user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
  })
  .meta({
    id: 'NewBusinessSession',
    description: 'The business just created, and a new 12-hour session of its owner',
    examples: [
      {
        business: { id: EXAMPLE.businessId, name: EXAMPLE.businessName },
        token: 'fbs_Xq3vR8kLm2Np7sT0wY5zB1cD4fG6hJ9aK2eQ7uVi0oE',
        expires_at: EXAMPLE.sessionExpiresAt,
        user: { id: EXAMPLE.ownerId, email: EXAMPLE.ownerEmail, name: EXAMPLE.ownerName },
      },
    ],
  });
export type NewBusinessSession = z.infer<typeof newBusinessSessionSchema>;
