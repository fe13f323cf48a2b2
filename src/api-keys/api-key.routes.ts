import { Router } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { principalOf } from '../http/auth.js';
import { permit } from '../http/authorize.js';
import { idParam, offsetEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { offsetParams, SCOPES, text } from '../shared/schemas.js';
import { toApiKeyResponse, toCreatedApiKeyResponse } from './api-key.presenter.js';
import { countApiKeys, findApiKeys } from './api-key.repository.js';
import { createApiKey, revokeKey } from './api-key.service.js';

export const createApiKeyBody = z.strictObject({
  name: text(100),
  scope: z.enum(SCOPES).default('read'),
});

export const listApiKeysQuery = z.strictObject(offsetParams);

/** Settings > Integrations (spec 5.6): dashboard owners and admins only, never an API key. */
export function apiKeyRoutes(pool: pg.Pool): Router {
  const router = Router({ mergeParams: true });
  router.use('/api-keys', permit('manage_keys'));

  router.get('/api-keys', async (req, res) => {
    const { businessId } = principalOf(req);
    const { limit, offset, order } = parseQuery(listApiKeysQuery, req.query);
    const [rows, total] = await Promise.all([
      findApiKeys(pool, businessId, { sort: 'created_at', order, limit, offset }),
      countApiKeys(pool, businessId),
    ]);
    res.json(offsetEnvelope(rows.map(toApiKeyResponse), total, limit, offset));
  });

  router.post('/api-keys', async (req, res) => {
    const principal = principalOf(req);
    const input = parseBody(createApiKeyBody, req.body);
    const { row, key } = await createApiKey(pool, principal.businessId, { ...input, createdBy: principal.userId });
    res.status(201).json(toCreatedApiKeyResponse(row, key));
  });

  router.delete('/api-keys/:id', async (req, res) => {
    const principal = principalOf(req);
    const row = await revokeKey(pool, principal.businessId, idParam(req.params.id, 'API key'), principal.userId);
    res.json(toApiKeyResponse(row));
  });

  return router;
}
