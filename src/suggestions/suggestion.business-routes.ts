import { Router } from 'express';
import type pg from 'pg';
import { mountCommentRoutes } from '../comments/comment.routes.js';
import { principalOf } from '../http/auth.js';
import { authorize, permit } from '../http/authorize.js';
import { idParam, offsetEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toSuggestionDashboardResponse } from './suggestion.presenter.js';
import {
  createSuggestionBody,
  listSuggestionsOffsetQuery,
  updateSuggestionDashboardBody,
} from './suggestion.schemas.js';
import { changeSuggestion, createSuggestion, getSuggestion, listSuggestions } from './suggestion.service.js';

/** /businesses/:business_id/suggestions: the dashboard's view, paged with limit/offset. */
export function suggestionBusinessRoutes(pool: pg.Pool): Router {
  const router = Router({ mergeParams: true });

  router.get('/suggestions', async (req, res) => {
    const { businessId } = principalOf(req);
    const { limit, offset, sort, order, ...filter } = parseQuery(listSuggestionsOffsetQuery, req.query);
    const result = await listSuggestions(pool, businessId, filter, { sort, order, limit, offset });
    res.json(offsetEnvelope(result.rows.map(toSuggestionDashboardResponse), result.total, limit, offset));
  });

  router.get('/suggestions/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    res.json(
      toSuggestionDashboardResponse(await getSuggestion(pool, businessId, idParam(req.params.id, 'Suggestion'))),
    );
  });

  router.post('/suggestions', permit('write'), async (req, res) => {
    const suggestion = await createSuggestion(pool, principalOf(req), parseBody(createSuggestionBody, req.body));
    res
      .status(201)
      .location(`${req.baseUrl}/suggestions/${suggestion.id}`)
      .json(toSuggestionDashboardResponse(suggestion));
  });

  router.patch('/suggestions/:id', async (req, res) => {
    const principal = principalOf(req);
    const id = idParam(req.params.id, 'Suggestion');
    const changes = parseBody(updateSuggestionDashboardBody, req.body);
    const onlyStatus = Object.keys(changes).every((field) => field === 'status');
    authorize(principal, onlyStatus ? 'change_status' : 'write');
    res.json(toSuggestionDashboardResponse(await changeSuggestion(pool, principal, id, changes)));
  });

  mountCommentRoutes(router, pool, 'suggestion', 'offset');

  return router;
}
