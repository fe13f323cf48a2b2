import { defineFamilies } from '../http/families.js';
import { envelopeOf, idParam, listRequest } from '../http/params.js';
import { created, noContent, ok } from '../http/reply.js';
import type { Feature } from '../http/route.js';
import { toVoteResponse } from './vote.presenter.js';
import { voteOffsetPageSchema, votePageSchema, voteSchema } from './vote.responses.js';
import { castVoteBody, listVotesOffsetQuery, listVotesQuery, type CastVoteBody } from './vote.schemas.js';
import { castVote, listVotes, withdrawVote, type Voter } from './vote.service.js';

function voterOf(body: CastVoteBody): Voter {
  return 'email' in body.voter
    ? { type: 'email', email: body.voter.email, name: body.name }
    : { type: 'external_id', externalId: body.voter.external_id, name: body.name };
}

/** `/suggestions/:id/votes` in both families: listed (page/limit or limit/offset), cast, taken back. */
const common = {
  tag: 'Votes',
  path: '/suggestions/:id/votes',
  params: { id: "The suggestion; a malformed, unknown or other business's id is a 404" },
};

const list = defineFamilies({
  ...common,
  method: 'get',
  resource: 'Suggestion',
  description:
    'Oldest first by default. Votes cast on the public feedback page are `anonymous`: nothing of ' +
    'their voter is shown; an email or external id appears only on the votes an integrator added.',
  action: 'read',
  v1: {
    operationId: 'listVotes',
    summary: 'List the votes of a suggestion',
    query: listVotesQuery,
    responses: [{ status: 200, description: 'The votes', json: votePageSchema }],
  },
  business: {
    operationId: 'listBusinessVotes',
    summary: 'List the votes of a suggestion (dashboard)',
    query: listVotesOffsetQuery,
    responses: [{ status: 200, description: 'The votes', json: voteOffsetPageSchema }],
  },
  handler: async ({ principal, query, id, db }) => {
    const result = await listVotes(db, principal.businessId, id, listRequest(query).page);
    return ok(envelopeOf(query, result.rows.map(toVoteResponse), result.total));
  },
});

const cast = defineFamilies({
  ...common,
  method: 'post',
  resource: 'Suggestion',
  description:
    'One vote per voter and suggestion: a voter who already voted gets a 200 with the existing vote, ' +
    "a new vote a 201. The suggestion's `upvote_count` moves in the same transaction.",
  action: 'write',
  responses: [
    { status: 201, description: 'The new vote', json: voteSchema },
    { status: 200, description: 'This voter had already voted: the existing vote', json: voteSchema },
  ],
  v1: { operationId: 'castVote', summary: 'Upvote a suggestion for a voter', body: castVoteBody },
  business: {
    operationId: 'castBusinessVote',
    summary: 'Upvote a suggestion for a voter (dashboard)',
    body: castVoteBody,
  },
  handler: async ({ principal, body, id, db }) => {
    const outcome = await castVote(db, principal, id, voterOf(body));
    return outcome.created ? created(toVoteResponse(outcome.vote)) : ok(toVoteResponse(outcome.vote));
  },
});

const remove = defineFamilies({
  ...common,
  params: { ...common.params, vote_id: 'The vote; a malformed or unknown one is a 404' },
  method: 'delete',
  path: `${common.path}/:vote_id`,
  resource: 'Vote',
  action: 'write',
  responses: [{ status: 204, description: 'The vote is removed and the count lowered' }],
  v1: { operationId: 'deleteVote', summary: 'Take a vote back' },
  business: { operationId: 'deleteBusinessVote', summary: 'Take a vote back (dashboard)' },
  handler: async ({ params, principal, id, db }) => {
    const suggestionId = idParam(params.id, 'Suggestion');
    await withdrawVote(db, principal, suggestionId, { id });
    return noContent();
  },
});

const routes = [list, cast, remove];

export const voteFeature: Feature = {
  tags: [
    {
      name: 'Votes',
      description: 'Upvotes of suggestions: customers vote on the public feedback page, integrators for their users',
    },
  ],
  routes: [...routes.map((route) => route.v1), ...routes.map((route) => route.business)],
};
