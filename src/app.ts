import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { analyticsRoutes } from './analytics/analytics.routes.js';
import { apiKeyRoutes } from './api-keys/api-key.routes.js';
import { ListCache } from './cache/list-cache.js';
import { apiKeyAuth, businessAuth } from './http/auth.js';
import { jsonBody } from './http/body.js';
import { corsPolicy } from './http/cors.js';
import { exportRoutesV1 } from './exports/export.routes.js';
import { errorHandler, notFoundHandler } from './http/error-handler.js';
import { HttpError } from './http/errors.js';
import { createRateLimiters, type RateLimiters } from './http/rate-limit.js';
import { requestLogging } from './http/request-logging.js';
import { issueBusinessRoutes } from './issues/issue.business-routes.js';
import { issueRoutesV1 } from './issues/issue.routes.js';
import { apiDocument } from './openapi/api-document.js';
import { openApiRoutes } from './openapi/openapi.routes.js';
import { qrCodeRoutes } from './qr-codes/qr-code.routes.js';
import { authRoutes } from './sessions/auth.routes.js';
import { LoginThrottle, type LoginThrottleOptions } from './sessions/login-throttle.js';
import { suggestionBusinessRoutes } from './suggestions/suggestion.business-routes.js';
import { suggestionRoutesV1 } from './suggestions/suggestion.routes.js';
import { inviteAcceptRoutes, teamRoutes } from './team/team.routes.js';

export interface AppDeps {
  db: Database;
  logger: Logger;
  config?: Partial<Config>;
  /** False until migrations have run: health answers 503 meanwhile. */
  isReady?: () => boolean;
  /**
   * Made (and closed) by the caller, e.g. with Redis; by default in memory, RATE_LIMIT_PER_MINUTE
   * per credential, with nothing to close.
   */
  rateLimiters?: RateLimiters;
  /** Failed-login slow-down; the defaults suit production, tests shorten the delays. */
  loginThrottle?: LoginThrottleOptions;
}

export function createApp({
  db,
  logger,
  config = {},
  isReady = () => true,
  rateLimiters,
  loginThrottle,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every response is Cache-Control: no-store, so no client ever revalidates: an ETag would only cost
  // a hash of each body.
  app.set('etag', false);
  // Behind a reverse proxy, req.ip must be the client's address, not the proxy's: failed
  // authentications are limited per address.
  if (config.TRUST_PROXY !== undefined) app.set('trust proxy', config.TRUST_PROXY);
  const limiters = rateLimiters ?? createRateLimiters({ limit: config.RATE_LIMIT_PER_MINUTE ?? 60, logger });
  // Every router with credentials: guessing is limited before authentication, the credential's budget after it.
  const authenticated = (authenticate: RequestHandler) => [
    ...limiters.guardAuthentication(authenticate),
    limiters.perCredential,
  ];

  app.use(requestLogging(logger));
  app.use(corsPolicy(config.CORS_ORIGINS ?? []));
  app.use(helmet());
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  app.get('/health', async (_req, res) => {
    if (!isReady() || !(await db.ping())) throw new HttpError(503, 'Database unavailable', 'SERVICE_UNAVAILABLE');
    res.json({ status: 'ok' });
  });

  // No credential and no rate limit, and available while the service is still starting.
  app.use(openApiRoutes(apiDocument(config.RATE_LIMIT_PER_MINUTE)));

  app.use((_req, _res, next) => {
    if (!isReady()) throw new HttpError(503, 'Service is starting, retry shortly', 'SERVICE_UNAVAILABLE');
    next();
  });

  const lists = new ListCache(Math.round((config.LIST_CACHE_MB ?? 16) * 2 ** 20));
  const v1 = express.Router();
  v1.use(authenticated(apiKeyAuth(db.pool)));
  v1.use(jsonBody);
  v1.use(suggestionRoutesV1(db.pool, lists));
  v1.use(issueRoutesV1(db.pool, lists));
  v1.use(exportRoutesV1(db.pool));
  app.use('/api/v1', v1);

  // Sign-in and invite acceptance carry no credential: only the per-address failure limit applies.
  app.use('/auth', limiters.failedAuth, jsonBody, authRoutes(db.pool, new LoginThrottle(loginThrottle)));
  app.use('/invites', limiters.failedAuth, jsonBody, inviteAcceptRoutes(db.pool));

  const business = express.Router({ mergeParams: true });
  business.use(authenticated(businessAuth(db.pool)));
  business.use(jsonBody);
  business.use(
    suggestionBusinessRoutes(db.pool),
    issueBusinessRoutes(db.pool),
    qrCodeRoutes(db.pool, config.PUBLIC_BASE_URL ?? 'http://localhost:3000'),
    teamRoutes(db.pool),
    apiKeyRoutes(db.pool),
    analyticsRoutes(db.pool),
  );
  app.use('/businesses/:business_id', business);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
