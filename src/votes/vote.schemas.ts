import { z } from 'zod';
import {
  email,
  MAX_PAGE,
  nullToAbsent,
  offsetParams,
  oneLine,
  optionalOneLine,
  queryInt,
  sortOrder,
} from '../shared/schemas.js';

export const VOTER_NAME_MAX = 200;
export const EXTERNAL_ID_MAX = 200;

/** An integrator votes for one of its users, named by email or by its own id: one vote per voter. */
export const castVoteBody = z
  .strictObject({
    voter: z.union([
      z.strictObject({ email }).meta({ description: 'A voter named by email (compared without case)' }),
      z
        .strictObject({ external_id: oneLine(EXTERNAL_ID_MAX) })
        .meta({ description: "A voter named by the integrator's id" }),
    ]),
    name: nullToAbsent(optionalOneLine(VOTER_NAME_MAX)),
  })
  .meta({ examples: [{ voter: { email: 'ana.lima@example.com' }, name: 'Ana Lima' }] });
export type CastVoteBody = z.output<typeof castVoteBody>;

/** Votes list in the order they were cast by default. */
const voteOrder = { sort: z.enum(['created_at']).default('created_at'), order: sortOrder.default('asc') };

export const listVotesQuery = z.strictObject({
  page: queryInt(1, MAX_PAGE).default(1),
  limit: queryInt(1, 100).default(50),
  ...voteOrder,
});

export const listVotesOffsetQuery = z.strictObject({ ...offsetParams, ...voteOrder });
