import { accepted, created, ok } from '../http/reply.js';
import { followSuggestion } from '../follows/follow.service.js';
import { pageLocale } from './page.locale.js';
import { defineRoute, type Feature, type Services } from '../http/route.js';
import { toPublicSuggestion } from './page.presenter.js';
import { pageVoteSchema, postedFeedbackSchema, publicPageSchema, similarPublicListSchema } from './page.responses.js';
import { followBody, listPublicQuery, postFeedbackBody, similarQuery, unvoteQuery, voteBody } from './page.schemas.js';
import {
  assertHumanPost,
  assertSameOrigin,
  isPostedToken,
  issueFormToken,
  postedToken,
  readVoterToken,
  voterToken,
} from './page.security.js';
import {
  followSending,
  formAlreadySent,
  listPublicSuggestions,
  openCode,
  PAGE_SIZE,
  postFeedback,
  setPageVote,
  similarOnPage,
} from './page.service.js';

const common = { tag: 'Public feedback page', guard: 'public' } as const;
const suggestionParam = { id: 'A suggestion the page shows; any other id is a 404' };

/** Writes come only from the page itself, as its forms do. */
function sameOrigin(req: Parameters<typeof assertSameOrigin>[0], services: Services) {
  assertSameOrigin(req, services);
}

/**
 * The JSON side of the page behind every QR code (`/f/<code>`): what its script calls, and what a
 * client can call the same way. No credential; budgets per address; writes only from the page's origin.
 */
export const publicPageFeature: Feature = {
  tags: [
    {
      name: 'Public feedback page',
      description:
        'The JSON side of the page customers reach by scanning a QR code (`/f/<code>`, HTML): its list, ' +
        'posting feedback and voting. No credential; writes are refused unless they come from the page ' +
        'itself (Origin or Referer of this service), and each address has a budget of writes and reads.',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/public/suggestions',
      operationId: 'listPublicSuggestions',
      summary: 'List the suggestions a feedback page shows',
      description:
        'Public suggestions that need no review or were approved, never `rejected` ones, 20 at a time from ' +
        '`offset`. `trending` ranks by (votes + 1) / (hours since posted + 2)^1.5; `top` by votes; `new` by ' +
        'date. An unknown code is a 404, an inactive one a 410.',
      query: listPublicQuery,
      responses: [{ status: 200, description: 'One page of the suggestions', json: publicPageSchema }],
      errors: [404, 410],
      handler: async ({ req, query, services, db }) => {
        const target = await openCode(db, query.code);
        const reader = { businessId: target.business_id, changeNumber: target.change_number };
        const { items, total } = await services.reads.read(reader, 'page', (pool) =>
          listPublicSuggestions(pool, services.lists, target, query.sort, query.offset, readVoterToken(req)),
        );
        const next = query.offset + PAGE_SIZE;
        return ok({
          business_name: target.business_name,
          location_name: target.location_name,
          sort: query.sort,
          data: items.map((item) => toPublicSuggestion(item)),
          total,
          limit: PAGE_SIZE,
          offset: query.offset,
          next_offset: next < total ? next : null,
          form_token: issueFormToken(services.publicPage, query.code),
        });
      },
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/public/suggestions/similar',
      operationId: 'listSimilarPublicSuggestions',
      summary: 'Find what a feedback page shows like the feedback being typed',
      description:
        'Up to 5 suggestions the page shows (the same as `listPublicSuggestions`) whose content is like `q`, ' +
        'the most alike first: the finder that merging uses (`listSimilarSuggestions`). The page calls it as ' +
        'the visitor types, to offer a vote instead of a duplicate. On the page’s read budget per address. ' +
        'An unknown code is a 404, an inactive one a 410.',
      query: similarQuery,
      responses: [
        { status: 200, description: 'Like what is typed, the most alike first', json: similarPublicListSchema },
      ],
      errors: [404, 410],
      handler: async ({ query, services, db }) => {
        const target = await openCode(db, query.code);
        const reader = { businessId: target.business_id, changeNumber: target.change_number };
        const rows = await services.reads.read(reader, 'page', (pool) => similarOnPage(pool, target, query.q));
        return ok({
          data: rows.map((row) => ({
            id: row.id,
            content: row.content,
            upvote_count: row.upvote_count,
            status: row.status as 'pending' | 'reviewing' | 'in_progress' | 'completed',
          })),
        });
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/public/suggestions',
      operationId: 'postPublicFeedback',
      summary: 'Leave feedback on a feedback page',
      description:
        'Becomes a `public` suggestion from the QR code, at its location. On a business that requires ' +
        'approval it appears after review. Refused (400) when `website` is filled or when sent sooner ' +
        'than a few seconds after `form_token` was issued. A `form_token` sends feedback once: sent ' +
        'again, it is a 409 and nothing is stored.',
      body: postFeedbackBody,
      responses: [{ status: 201, description: 'Received', json: postedFeedbackSchema }],
      errors: [403, 404, 409, 410],
      handler: async ({ req, body, services, db }) => {
        sameOrigin(req, services);
        const target = await openCode(db, body.code);
        const form = assertHumanPost(services.publicPage, body.code, body);
        const now = new Date(services.publicPage.now());
        const posted = await postFeedback(db, target, body, form, now);
        if (posted.repeated) throw formAlreadySent();
        return created({
          id: posted.id,
          awaiting_review: posted.awaitingReview,
          suggestion: posted.item ? toPublicSuggestion(posted.item) : null,
          posted_token: postedToken(services.publicPage, body.code, posted.id),
        });
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/public/suggestions/:id/vote',
      resource: 'Suggestion',
      params: suggestionParam,
      operationId: 'votePublicSuggestion',
      summary: 'Upvote a suggestion from a feedback page',
      description:
        'Once per browser: the voter is an anonymous token in an HttpOnly cookie (set here when missing), ' +
        'stored only as a digest. 201 for a new vote, 200 when this browser had already voted. A browser ' +
        'that drops its cookie votes again, so one address adds at most `PAGE_VOTES_PER_ADDRESS_PER_DAY` ' +
        '(50) votes to a suggestion in a day; beyond, a 429 with Retry-After.',
      body: voteBody,
      responses: [
        { status: 201, description: 'Voted', json: pageVoteSchema },
        { status: 200, description: 'This browser had already voted', json: pageVoteSchema },
      ],
      errors: [403, 410],
      handler: async ({ req, body, services, id, db }) => {
        sameOrigin(req, services);
        const target = await openCode(db, body.code);
        const { token, cookies } = voterToken(req);
        const voter = { token, address: req.ip ?? '' };
        const outcome = await setPageVote(db, target, id, voter, true, services.publicPage.votes);
        const answer = { suggestion_id: id, voted: true, upvote_count: outcome.upvoteCount };
        return { ...(outcome.changed ? created(answer) : ok(answer)), cookies };
      },
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/public/suggestions/:id/vote',
      resource: 'Suggestion',
      params: suggestionParam,
      operationId: 'unvotePublicSuggestion',
      summary: 'Take back a vote from a feedback page',
      description: "Removes this browser's vote, if it has one; the answer is the same either way.",
      query: unvoteQuery,
      responses: [{ status: 200, description: 'Not voted (any more)', json: pageVoteSchema }],
      errors: [403, 410],
      handler: async ({ req, query, services, id, db }) => {
        sameOrigin(req, services);
        const target = await openCode(db, query.code);
        const { token, cookies } = voterToken(req);
        const voter = { token, address: req.ip ?? '' };
        const outcome = await setPageVote(db, target, id, voter, false, services.publicPage.votes);
        return { ...ok({ suggestion_id: id, voted: false, upvote_count: outcome.upvoteCount }), cookies };
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/public/suggestions/:id/follow',
      resource: 'Suggestion',
      params: suggestionParam,
      operationId: 'followPublicSuggestion',
      summary: 'Follow a suggestion by email',
      description:
        'Double opt-in: a new address gets one email with a link to confirm, and nothing else until it ' +
        'does; unconfirmed after 7 days, it is forgotten. An address that already follows the suggestion ' +
        'gets nothing more. The answer is the same either way (docs/notifications.md). A business sends at ' +
        'most `FOLLOW_CONFIRMATIONS_PER_HOUR` (100) confirmations an hour; beyond, a 429 with Retry-After. ' +
        'The confirmation names the business and links to the suggestion on the page: it quotes nothing a ' +
        'visitor wrote. A `posted_token` starts one follow, once: sent again (with any address), it is a 409 ' +
        '`POSTED_TOKEN_USED`.',
      body: followBody,
      responses: [{ status: 202, description: 'A confirmation is on its way, if the address is new' }],
      errors: [403, 409, 410],
      handler: async ({ req, body, services, id, db }) => {
        sameOrigin(req, services);
        const target = await openCode(db, body.code);
        const ownPost = isPostedToken(services.publicPage, body.code, id, body.posted_token);
        const place = { ...target, code: body.code };
        await followSuggestion(db, followSending(services), place, {
          suggestionId: id,
          email: body.email,
          ownPost,
          locale: pageLocale(req, target.default_language),
        });
        return accepted();
      },
    }),
  ],
};
