import { Router } from 'express';
import type pg from 'pg';
import { mountCommentRoutes } from '../comments/comment.routes.js';
import { sendCachedList, type ListCache } from '../cache/list-cache.js';
import { principalOf } from '../http/auth.js';
import { permit } from '../http/authorize.js';
import { idParam, pageEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toSuggestionListItem, toSuggestionResponse } from './suggestion.presenter.js';
import { createSuggestionBody, listSuggestionsQuery, updateSuggestionBody } from './suggestion.schemas.js';
import { changeSuggestion, createSuggestion, getSuggestion, listSuggestions } from './suggestion.service.js';

/** /api/v1/suggestions: the business comes from the API key. */
export function suggestionRoutesV1(pool: pg.Pool, lists: ListCache): Router {
  const router = Router();

  router.get('/suggestions', async (req, res) => {
    const principal = principalOf(req);
    const { businessId } = principal;
    const query = parseQuery(listSuggestionsQuery, req.query);
    await sendCachedList(res, lists, principal, `suggestions ${JSON.stringify(query)}`, async () => {
      const { page, limit, sort, order, ...filter } = query;
      const result = await listSuggestions(pool, businessId, filter, {
        sort,
        order,
        limit,
        offset: (page - 1) * limit,
      });
      return pageEnvelope(result.rows.map(toSuggestionListItem), result.total, page, limit);
    });
  });

  router.get('/suggestions/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    const suggestion = await getSuggestion(pool, businessId, idParam(req.params.id, 'Suggestion'));
    res.json(toSuggestionResponse(suggestion));
  });

  router.post('/suggestions', permit('write'), async (req, res) => {
    const input = parseBody(createSuggestionBody, req.body);
    const suggestion = await createSuggestion(pool, principalOf(req), input);
    res.status(201).location(`${req.baseUrl}/suggestions/${suggestion.id}`).json(toSuggestionResponse(suggestion));
  });

  router.patch('/suggestions/:id', permit('write'), async (req, res) => {
    const id = idParam(req.params.id, 'Suggestion');
    const changes = parseBody(updateSuggestionBody, req.body);
    const suggestion = await changeSuggestion(pool, principalOf(req), id, changes);
    res.json(toSuggestionResponse(suggestion));
  });

  mountCommentRoutes(router, pool, 'suggestion', 'page');

  return router;
}
