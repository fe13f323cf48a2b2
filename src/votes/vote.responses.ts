import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, pageEnvelopeSchema, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

export const voteSchema = z
  .object({
    id: uuid,
    suggestion_id: uuid,
    voter_type: z.enum(['anonymous', 'email', 'external_id']).meta({
      description: '`anonymous`: a customer on the public feedback page, of whom nothing is known or shown',
    }),
    email: z.string().nullable().meta({ description: 'The email an integrator voted for; null otherwise' }),
    external_id: z.string().nullable().meta({ description: "The integrator's id of the voter; null otherwise" }),
    name: z.string().nullable().meta({ description: 'The name an integrator gave; null otherwise' }),
    created_at: timestamp,
  })
  .meta({
    id: 'Vote',
    description: 'One upvote of a suggestion',
    examples: [
      {
        id: EXAMPLE.voteId,
        suggestion_id: EXAMPLE.suggestionId,
        voter_type: 'email',
        email: 'ana.lima@example.com',
        external_id: null,
        name: 'Ana Lima',
        created_at: EXAMPLE.updatedAt,
      },
    ],
  });
export type Vote = z.infer<typeof voteSchema>;

export const votePageSchema = pageEnvelopeSchema(voteSchema, 'VotePage');
export const voteOffsetPageSchema = offsetEnvelopeSchema(voteSchema, 'VoteOffsetPage');
