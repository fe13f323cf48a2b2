import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { apiKeyAuth } from './http/auth.js';
import { jsonBody } from './http/body.js';
import { exportRoutesV1 } from './exports/export.routes.js';
import { errorHandler, notFoundHandler } from './http/error-handler.js';
import { HttpError } from './http/errors.js';
import { requestLogging } from './http/request-logging.js';
import { issueRoutesV1 } from './issues/issue.routes.js';
import { suggestionRoutesV1 } from './suggestions/suggestion.routes.js';

export interface AppDeps {
  db: Database;
  logger: Logger;
  config?: Partial<Config>;
  /** False until migrations have run: health answers 503 meanwhile. */
  isReady?: () => boolean;
}

export function createApp({ db, logger, isReady = () => true }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');

  app.use(requestLogging(logger));
  app.use(helmet());
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  app.get('/health', async (_req, res) => {
    if (!isReady() || !(await db.ping())) throw new HttpError(503, 'Database unavailable', 'SERVICE_UNAVAILABLE');
    res.json({ status: 'ok' });
  });

  app.use((_req, _res, next) => {
    if (!isReady()) throw new HttpError(503, 'Service is starting, retry shortly', 'SERVICE_UNAVAILABLE');
    next();
  });

  const v1 = express.Router();
  v1.use(apiKeyAuth(db.pool));
  v1.use(jsonBody);
  v1.use(suggestionRoutesV1(db.pool));
  v1.use(issueRoutesV1(db.pool));
  v1.use(exportRoutesV1(db.pool));
  app.use('/api/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
