import { randomBytes } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { admitIdentified, apiKeyAuth, businessAuth, sessionAuth } from './auth/credentials.js';
import { LoginThrottle, type LoginThrottleOptions } from './auth/login-throttle.js';
import { ListCache } from './cache/list-cache.js';
import { dashboardUrl, type Config } from './config/config.js';
import type { Database } from './db/database.js';
import { MemoryPositions } from './db/replica-positions.js';
import { ReadReplicas } from './db/replicas.js';
import { serviceUnavailable } from './errors/http-error.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler, notFoundHandler } from './http/error-handler.js';
import { createRateLimiters, type RateLimiters } from './http/rate-limit.js';
import { requestLogging } from './http/request-logging.js';
import type { Metrics } from './metrics/metrics.js';
import { RouteTable, type Services } from './http/route.js';
import { IdempotencyStore, type IdempotencyOptions } from './idempotency/idempotency.store.js';
import { MailSender, type Mailer } from './mail/mail.sender.js';
import { mailTransport } from './mail/mail.transport.js';
import { dashboardPages } from './dashboard/dashboard.pages.js';
import { favicon } from './http/pages.js';
import { docsPages } from './openapi/openapi.routes.js';
import { publicPages } from './public-page/page.pages.js';
import { ScanCounter } from './public-page/scan-counter.js';
import { apiDocument, ROUTES } from './routes.js';

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
  /** Prometheus metrics (METRICS_PORT): observed only when given, served by main.ts on their own port. */
  metrics?: Metrics;
  /**
   * Sends invites and password resets. main.ts makes one from the configuration and starts its
   * retries; by default one that sends each message right after its transaction, without retries.
   */
  mail?: Mailer;
  /**
   * The public feedback page: its clock (tests move it past the form's minimum fill time) and its scan
   * counter (main.ts flushes it on shutdown); by default the real clock and a counter flushing every 10 s.
   */
  publicPage?: { now?: () => number; scans?: ScanCounter; followConfirmationsPerHour?: number };
  /** Idempotency-Key: the clock and a test hook; the retention is IDEMPOTENCY_TTL_HOURS. */
  idempotency?: Partial<IdempotencyOptions>;
  /**
   * Read replicas (DATABASE_READ_URL), made, started and stopped by the caller; by default none,
   * every read on the primary (still counted in the metrics as such).
   */
  reads?: ReadReplicas;
}

export function createApp({
  db,
  logger,
  config = {},
  isReady = () => true,
  rateLimiters,
  loginThrottle,
  metrics,
  mail,
  publicPage = {},
  idempotency,
  reads,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every response is Cache-Control: no-store, so no client ever revalidates: an ETag would only cost
  // a hash of each body.
  app.set('etag', false);
  // Behind a reverse proxy, req.ip must be the client's address, not the proxy's: failed
  // authentications are limited per address.
  if (config.TRUST_PROXY !== undefined) app.set('trust proxy', config.TRUST_PROXY);
  const limiters =
    rateLimiters ??
    createRateLimiters({
      limit: config.RATE_LIMIT_PER_MINUTE ?? 60,
      pageVotesPerAddress: config.PAGE_VOTES_PER_ADDRESS_PER_DAY,
      businessInFlight: config.BUSINESS_REQUESTS_IN_FLIGHT,
      logger,
    });
  /**
   * Every route with a credential in a header: a valid credential is always served, and a refused one
   * from an address that has spent its failure budget is a 429; an identified credential is charged for
   * every request, a 403 (another business, a non-member, a plan without API access) included. An
   * admitted request of a business then takes its place in the business's share of the instance.
   */
  const businessShare: RequestHandler = (req, res, next) => {
    if (!req.principal) return next();
    limiters.businessShare.enter(req.principal.businessId, res, next);
  };
  const authenticated = (authenticate: RequestHandler) => [
    limiters.refuseSpentAddress,
    authenticate,
    limiters.perCredential,
    admitIdentified,
    businessShare,
  ];

  app.use(requestLogging(logger, metrics?.observeResponse));
  app.use(corsPolicy(config.CORS_ORIGINS ?? []));
  app.use(helmet());
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const document = JSON.stringify(apiDocument(config.RATE_LIMIT_PER_MINUTE));
  const cacheBytes = Math.round((config.LIST_CACHE_MB ?? 16) * 2 ** 20);
  const lists: ListCache = new ListCache(
    cacheBytes,
    metrics?.listCacheObserver(() => lists.bytes),
  );
  const scans = publicPage.scans ?? new ScanCounter(db.pool, logger);
  const readsFromPrimary = () =>
    new ReadReplicas(db.pool, {
      replicas: [],
      maxLagMs: config.READ_REPLICA_MAX_LAG_MS ?? 1000,
      positions: new MemoryPositions(),
      logger,
      observer: metrics?.readObserver(() => []),
    });
  const services: Services = {
    db,
    reads: reads ?? readsFromPrimary(),
    idempotency: new IdempotencyStore(db.pool, {
      ttlHours: config.IDEMPOTENCY_TTL_HOURS ?? 24,
      now: () => new Date(),
      ...idempotency,
    }),
    lists,
    loginThrottle: new LoginThrottle(loginThrottle),
    mail:
      mail ?? new MailSender(db.pool, mailTransport(config, logger), logger, { dashboardUrl: dashboardUrl(config) }),
    publicBaseUrl: config.PUBLIC_BASE_URL ?? 'http://localhost:3000',
    publicBaseUrlConfigured: config.PUBLIC_BASE_URL !== undefined,
    eventRetentionDays: config.EVENT_RETENTION_DAYS ?? 30,
    webhookAllowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? false,
    webhookMaxEndpoints: config.WEBHOOK_MAX_ENDPOINTS ?? 20,
    apiKeysMaxPerBusiness: config.API_KEYS_MAX_PER_BUSINESS ?? 100,
    importMaxBytes: config.IMPORT_MAX_BYTES ?? 52_428_800,
    inviteLimits: {
      perBusinessPerHour: config.INVITES_PER_BUSINESS_PER_HOUR ?? 50,
      perAddressPerDay: config.INVITES_PER_ADDRESS_PER_DAY ?? 3,
    },
    signupOpen: config.SIGNUP === 'open',
    isReady,
    document: () => document,
    publicPage: {
      now: publicPage.now ?? Date.now,
      formKey: config.PAGE_FORM_SECRET ? Buffer.from(config.PAGE_FORM_SECRET) : randomBytes(32),
      minFillMs: (config.PAGE_MIN_FILL_SECONDS ?? 3) * 1000,
      countScan: (qrCodeId, businessId, at) => scans.count(qrCodeId, businessId, at),
      votes: limiters.pageVotes,
      followConfirmationsPerHour: publicPage.followConfirmationsPerHour ?? config.FOLLOW_CONFIRMATIONS_PER_HOUR ?? 100,
    },
  };
  const routes = new RouteTable(ROUTES, services);

  // No credential and no rate limit, and available while the service is still starting.
  app.get('/favicon.ico', favicon());
  app.use(routes.mount(['open']), docsPages());

  // The public feedback pages (no credential): budgets per address, reads apart from writes. Before the
  // check below, so that while the service is starting they answer a page, not JSON (they check it too).
  app.use(publicPages(services, limiters.pageBudget));
  // The team's dashboard (HTML pages, session cookie), likewise a page while the service is starting.
  app.use('/app', dashboardPages(services, limiters));

  app.use((_req, _res, next) => {
    if (!isReady()) throw serviceUnavailable('Service is starting, retry shortly');
    next();
  });

  const v1 = express.Router();
  v1.use(authenticated(apiKeyAuth(db.pool)), routes.mount(['api_key'], '/api/v1'));
  app.use('/api/v1', v1);

  // The session's own routes are limited like the business family; sign-in and invite acceptance carry
  // their credential in the body, so each holds a place in the address's failure budget while in flight.
  app.use('/auth', routes.mount(['session'], '/auth', authenticated(sessionAuth(db.pool))));
  app.use('/auth', routes.mount(['public'], '/auth', [limiters.holdWhileInFlight]));
  app.use('/invites', routes.mount(['public'], '/invites', [limiters.holdWhileInFlight]));

  // The JSON side of the public feedback page, on the same budgets.
  const pageReads = limiters.pageBudget('read', 'json');
  const pageWrites = limiters.pageBudget('write', 'json');
  const pageBudget: RequestHandler = (req, res, next) =>
    (req.method === 'GET' ? pageReads : pageWrites)(req, res, next);
  app.use('/public', routes.mount(['public'], '/public', [pageBudget]));

  const business = express.Router({ mergeParams: true });
  business.use(authenticated(businessAuth(db.pool)), routes.mount(['business'], '/businesses/:business_id'));
  app.use('/businesses/:business_id', business);
  routes.assertAllMounted();

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
