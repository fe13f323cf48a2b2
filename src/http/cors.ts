import cors from 'cors';
import type { RequestHandler } from 'express';

/** What a browser script may read from a response besides the basics. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Total-Count',
  'X-Export-Truncated',
  'Content-Disposition',
  'Idempotent-Replayed',
  'Idempotent-Replay-Withheld',
];

/**
 * Cross-origin access is off unless CORS_ORIGINS names the origins (exact matches) whose scripts
 * may call the API, e.g. a dashboard on another domain. Credentials travel in headers, never cookies.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  if (allowed.size === 0) return (_req, _res, next) => next();
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
