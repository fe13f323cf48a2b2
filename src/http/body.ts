import express, { type RequestHandler } from 'express';
import { HttpError } from './errors.js';

export const BODY_LIMIT = '64kb';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return req.headers['transfer-encoding'] !== undefined || length > 0;
}

const parseJson = express.json({ limit: BODY_LIMIT, strict: true });

/**
 * A body that is not JSON is a 415; malformed JSON a 400 and an oversized one a 413 (via the error
 * handler). A request without a body (every GET) skips the parser: it would find nothing to read,
 * at a cost comparable to the rest of a cached list request.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) return next();
  if (!req.is('application/json')) {
    throw new HttpError(415, 'Request body must be JSON (Content-Type: application/json)', 'UNSUPPORTED_MEDIA_TYPE');
  }
  return parseJson(req, res, next);
};
