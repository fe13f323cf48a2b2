import { idParam, offsetEnvelope, pageEnvelope } from '../http/params.js';
import { created, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature, type Route } from '../http/route.js';
import { toVoteResponse } from './vote.presenter.js';
import { voteOffsetPageSchema, votePageSchema, voteSchema } from './vote.responses.js';
import { castVoteBody, listVotesOffsetQuery, listVotesQuery, type CastVoteBody } from './vote.schemas.js';
import { castVote, listVotes, withdrawVote, type Voter } from './vote.service.js';

function voterOf(body: CastVoteBody): Voter {
  return 'email' in body.voter
    ? { type: 'email', email: body.voter.email, name: body.name }
    : { type: 'external_id', externalId: body.voter.external_id, name: body.name };
}

/** GET, POST and DELETE `/suggestions/:id/votes` in either family (page/limit or limit/offset). */
function voteRoutes(family: 'v1' | 'business'): Route[] {
  const v1 = family === 'v1';
  const base = `${v1 ? '/api/v1' : '/businesses/:business_id'}/suggestions/:id/votes`;
  const name = v1 ? '' : 'Business';
  const suffix = v1 ? '' : ' (dashboard)';
  const common = {
    tag: 'Votes',
    params: { id: "The suggestion; a malformed, unknown or other business's id is a 404" },
  };
  const post = defineRoute({
    ...common,
    guard: v1 ? 'api_key' : 'business',
    method: 'post',
    path: base,
    resource: 'Suggestion',
    operationId: `cast${name}Vote`,
    summary: `Upvote a suggestion for a voter${suffix}`,
    description:
      'One vote per voter and suggestion: a voter who already voted gets a 200 with the existing vote, ' +
      "a new vote a 201. The suggestion's `upvote_count` moves in the same transaction.",
    action: 'write',
    body: castVoteBody,
    responses: [
      { status: 201, description: 'The new vote', json: voteSchema },
      { status: 200, description: 'This voter had already voted: the existing vote', json: voteSchema },
    ],
    handler: async ({ principal, body, id, db }) => {
      const outcome = await castVote(db, principal, id, voterOf(body));
      return outcome.created ? created(toVoteResponse(outcome.vote)) : ok(toVoteResponse(outcome.vote));
    },
  });
  const remove = defineRoute({
    ...common,
    params: { ...common.params, vote_id: 'The vote; a malformed or unknown one is a 404' },
    guard: v1 ? 'api_key' : 'business',
    method: 'delete',
    path: `${base}/:vote_id`,
    resource: 'Vote',
    operationId: `delete${name}Vote`,
    summary: `Take a vote back${suffix}`,
    action: 'write',
    responses: [{ status: 204, description: 'The vote is removed and the count lowered' }],
    handler: async ({ req, principal, id, db }) => {
      const suggestionId = idParam(req.params.id, 'Suggestion');
      await withdrawVote(db, principal, suggestionId, { id });
      return noContent();
    },
  });
  const list = {
    ...common,
    method: 'get',
    path: base,
    resource: 'Suggestion',
    operationId: `list${name}Votes`,
    summary: `List the votes of a suggestion${suffix}`,
    description:
      'Oldest first by default. Votes cast on the public feedback page are `anonymous`: nothing of ' +
      'their voter is shown; an email or external id appears only on the votes an integrator added.',
    action: 'read',
  } as const;
  const get = v1
    ? defineRoute({
        ...list,
        guard: 'api_key',
        query: listVotesQuery,
        responses: [{ status: 200, description: 'The votes', json: votePageSchema }],
        handler: async ({ principal, query, id, db }) => {
          const { page, limit, sort, order } = query;
          const window = { sort, order, limit, offset: (page - 1) * limit };
          const result = await listVotes(db, principal.businessId, id, window);
          return ok(pageEnvelope(result.rows.map(toVoteResponse), result.total, page, limit));
        },
      })
    : defineRoute({
        ...list,
        guard: 'business',
        query: listVotesOffsetQuery,
        responses: [{ status: 200, description: 'The votes', json: voteOffsetPageSchema }],
        handler: async ({ principal, query, id, db }) => {
          const { limit, offset, sort, order } = query;
          const result = await listVotes(db, principal.businessId, id, { sort, order, limit, offset });
          return ok(offsetEnvelope(result.rows.map(toVoteResponse), result.total, limit, offset));
        },
      });
  return [get, post, remove];
}

export const voteFeature: Feature = {
  tags: [
    {
      name: 'Votes',
      description: 'Upvotes of suggestions: customers vote on the public feedback page, integrators for their users',
    },
  ],
  routes: [...voteRoutes('v1'), ...voteRoutes('business')],
};
