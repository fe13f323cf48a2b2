import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { email } from '../shared/schemas.js';
import { PASSWORD_MAX_LENGTH } from '../users/password-policy.js';

export const loginBody = z
  .strictObject({
    email,
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  })
  .meta({ examples: [{ email: EXAMPLE.ownerEmail, password: 'croissants at seven' }] });
