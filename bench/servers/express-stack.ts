/**
 * The ceilings of the cached list and of the create on the stack the service is built on: Express 5
 * with the service's own middleware in its order (request logging through pino to stdout, helmet,
 * no-store, the address's failure budget, the API key lookup with the business's change number, the
 * per-credential budget), and then, for the list, the bytes kept for that business, change number
 * and URL, as the service's cache keeps them; for a create, the service's body reader and the write
 * floor's create (../lib/writes.ts). What it leaves out is the service's own part: the route table,
 * validation, idempotency, the other routers. Against the floors (raw node:http doing the same
 * statements) it shows what the fixed stack costs; against the service, what the service adds to it.
 * Env: DATABASE_URL, PORT (0 for any); prints `{"port": N}` on stdout once listening.
 */
import { once } from 'node:events';
import express from 'express';
import helmet from 'helmet';
import { admitIdentified, apiKeyAuth } from '../../src/auth/credentials.js';
import { createLogger } from '../../src/config/logger.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { jsonBody } from '../../src/http/body.js';
import { requestLogging } from '../../src/http/request-logging.js';
import { pageEnvelope } from '../../src/http/params.js';
import { toSuggestionListItem } from '../../src/suggestions/suggestion.presenter.js';
import { listSuggestions } from '../../src/suggestions/suggestion.service.js';
import type { ApiKeyPrincipal } from '../../src/auth/principal.js';
import { createSuggestion, type CreateInput } from '../lib/writes.js';

const { pool } = openPostgres(process.env.DATABASE_URL!, () => undefined);
const logger = createLogger('info');
const limiters = createRateLimiters({ limit: 1e9, failedAuthLimit: 1e9, logger });
const kept = new Map<string, Buffer>();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(requestLogging(logger));
app.use(helmet());
app.use((_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
});
app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});
app.get(
  '/api/v1/suggestions',
  limiters.refuseSpentAddress,
  apiKeyAuth(pool),
  limiters.perCredential,
  admitIdentified,
  async (req, res) => {
    const { businessId, changeNumber } = req.principal!;
    const key = `${businessId} ${changeNumber} ${req.url}`;
    let body = kept.get(key);
    if (!body) {
      const limit = Number(req.query.limit ?? 50);
      const result = await listSuggestions(
        pool,
        businessId,
        {},
        { sort: 'created_at', order: 'desc', limit, offset: 0 },
      );
      body = Buffer.from(JSON.stringify(pageEnvelope(result.rows.map(toSuggestionListItem), result.total, 1, limit)));
      kept.set(key, body);
    }
    res.set('Content-Type', 'application/json; charset=utf-8').send(body);
  },
);
app.post(
  '/api/v1/suggestions',
  limiters.refuseSpentAddress,
  apiKeyAuth(pool),
  limiters.perCredential,
  admitIdentified,
  jsonBody,
  async (req, res) => {
    const created = await createSuggestion(pool, req.principal as ApiKeyPrincipal, req.body as CreateInput);
    res.status(created.status).set('Location', created.location!).type('json').send(created.body);
  },
);
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
process.on('SIGTERM', () => {
  server.close();
  void limiters.close();
  void pool.end();
});
