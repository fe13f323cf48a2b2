import { Router } from 'express';
import type { OpenApiDocument } from './document.js';

export const DOCUMENT_PATH = '/api/v1/openapi.json';

/** The document: no credential, no rate limit. */
export function openApiRoutes(document: OpenApiDocument): Router {
  const router = Router();
  const body = JSON.stringify(document);

  router.get(DOCUMENT_PATH, (_req, res) => {
    res.type('application/json').send(body);
  });
  return router;
}
