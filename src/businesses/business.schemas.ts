import { z } from 'zod';
import { oneLine, patchBody } from '../shared/schemas.js';

export const BUSINESS_NAME_MAX = 200;

export const updateBusinessBody = patchBody({
  name: oneLine(BUSINESS_NAME_MAX).optional(),
  approval_required: z
    .boolean()
    .optional()
    .meta({
      description:
        'Whether `public` suggestions wait for review before the public page shows them. Changing it never ' +
        'changes existing suggestions: what is published stays published, what awaits review still does.',
    }),
  notify_followers: z
    .boolean()
    .optional()
    .meta({
      description:
        'Whether customers who follow a suggestion by email are told when it moves. Off, nothing is sent to ' +
        'them (changes made meanwhile are not sent later); following stays possible.',
    }),
}).meta({ examples: [{ name: 'Café Soleil – Vieux Port', approval_required: true }] });
export type UpdateBusinessBody = z.output<typeof updateBusinessBody>;
