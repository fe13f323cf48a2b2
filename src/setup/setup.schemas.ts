import { z } from 'zod';
import { email, oneLine } from '../shared/schemas.js';
import { newPassword } from '../users/password-policy.js';

/** The first run's form, and a sign-up's: a business, its owner's name, email and password. */
export const newOwnerFields = {
  business_name: oneLine(200),
  name: oneLine(200),
  email,
  password: newPassword,
};

export const setupBody = z.strictObject({ token: z.string().max(200), ...newOwnerFields });
export type SetupBody = z.output<typeof setupBody>;

export const signUpBody = z.strictObject(newOwnerFields);
export type SignUpBody = z.output<typeof signUpBody>;
