import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, dashboardUrl, loadConfig, type Config } from './config/config.js';
import { EmbeddedMaintenance } from './db/embedded-maintenance.js';
import { openBackgroundDatabase, openDatabase, openReadReplicas } from './db/open.js';
import { WebhookWorker } from './webhooks/webhook.worker.js';
import { migrate } from './db/migrate.js';
import { createRateLimiters } from './http/rate-limit.js';
import { SharedRedis } from './http/rate-limit-store.js';
import { createHttpServer } from './http/server.js';
import { createLogger } from './config/logger.js';
import { startIdempotencyPurge } from './idempotency/idempotency.purge.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { MailSender } from './mail/mail.sender.js';
import { FollowNotifier } from './follows/follow.notifier.js';
import { mailTransport } from './mail/mail.transport.js';
import { Metrics } from './metrics/metrics.js';
import { ScanCounter } from './public-page/scan-counter.js';
import { issueSetupLink } from './setup/setup.service.js';

const SHUTDOWN_GRACE_MS = 10_000;

/** Which database is opened, for the first log line: never the URL itself, which holds a password. */
function databaseTarget(config: Config): Record<string, string> {
  if (!config.DATABASE_URL) return { database: 'embedded', dataDir: config.DATA_DIR };
  try {
    return { database: 'postgres', host: new URL(config.DATABASE_URL).host };
  } catch {
    return { database: 'postgres' };
  }
}

/** Where the service answers, as a URL to open: an unspecified address (all interfaces) as localhost. */
function serviceUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  // Said before anything slow (the app's modules load while the database opens; an empty DATA_DIR
  // runs initdb, seconds): whoever started the service sees at once what it is doing.
  const target = databaseTarget(config);
  logger.info(target, `opening the ${target.database === 'embedded' ? 'embedded' : 'PostgreSQL'} database`);
  const appModule = import('./app.js');
  const onPoolError = (err: Error) => logger.warn({ err }, 'database connection lost');
  const db = await openDatabase(config, onPoolError);
  const { createApp } = await appModule;

  const rateLimiters = createRateLimiters({
    limit: config.RATE_LIMIT_PER_MINUTE,
    failedAuthLimit: config.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
    pageWriteLimit: config.PAGE_WRITES_PER_MINUTE,
    pageReadLimit: config.PAGE_READS_PER_MINUTE,
    pageVotesPerAddress: config.PAGE_VOTES_PER_ADDRESS_PER_DAY,
    businessInFlight: config.BUSINESS_REQUESTS_IN_FLIGHT,
    redis: config.REDIS_URL ? { url: config.REDIS_URL } : undefined,
    logger,
  });

  const metrics = config.METRICS_PORT ? new Metrics(db.pool) : undefined;
  const metricsServer = metrics?.listen(config.METRICS_PORT!, config.METRICS_HOST);
  if (metricsServer) logger.info({ port: config.METRICS_PORT, host: config.METRICS_HOST }, 'metrics listening');

  // Streaming replicas for the reads that may be a little behind (docs/operations.md#read-replicas).
  // Business positions in Redis when there is one, so that every instance knows every instance's writes.
  const positionsRedis =
    config.REDIS_URL && config.DATABASE_READ_URL.length > 0
      ? new SharedRedis(
          {
            url: config.REDIS_URL,
            prefix: 'fbk:rr:',
            outage: {
              down: 'read-replica positions (Redis) unavailable: a replica answers only once it has replayed all the primary had',
              back: 'read-replica positions (Redis) are back: replicas answer each business again',
            },
          },
          logger,
        )
      : undefined;
  const reads = openReadReplicas(config, db, onPoolError, logger, metrics, positionsRedis);
  reads.start();
  if (reads.configured) {
    logger.info(
      { replicas: reads.status().map((replica) => replica.name) },
      'reading from replicas where they keep up',
    );
  }

  const mail = new MailSender(db.pool, mailTransport(config, logger), logger, { dashboardUrl: dashboardUrl(config) });
  const followers = new FollowNotifier(db.pool, mail, logger, {
    baseUrl: config.PUBLIC_BASE_URL,
    perBusinessPerHour: config.FOLLOWER_EMAILS_PER_HOUR,
    pollIntervalMs: 30_000,
  });
  if (mail.developmentMode) {
    logger.warn(
      'development mail mode (no SMTP_URL): messages are written to this log and invite tokens are returned to ' +
        'whoever invites; never run production like this',
    );
  }

  // PGlite has no autovacuum daemon: without this its planner never learns how big tables are.
  const maintenance = db.mode === 'embedded' ? new EmbeddedMaintenance(db.pool, logger) : undefined;
  // The webhook worker on connections of its own (its listener, claims and records): in the requests'
  // pool its statements waited in line behind theirs, and a delivery arrived 130 ms after its event
  // instead of 50 at 80% of the create capacity (bench/README.md).
  const workerDb = openBackgroundDatabase(config, db, onPoolError, 3, 'feedback-api-webhooks');
  const webhooks = new WebhookWorker(workerDb.db, logger, {
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    retentionDays: config.EVENT_RETENTION_DAYS,
  });

  let ready = false;
  // Page opens of QR codes are counted in memory and written every 10 s, and once more on shutdown.
  const scans = new ScanCounter(db.pool, logger);
  const app = createApp({
    db,
    logger,
    config,
    isReady: () => ready,
    rateLimiters,
    metrics,
    mail,
    publicPage: { scans },
    reads,
  });
  const server = createHttpServer(app, {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  }).listen(config.PORT, config.HOST);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port, host: config.HOST, database: db.mode }, 'listening');

  let stopping = false;
  let stopPurge = async () => {};
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    forced.unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections that go idle once their in-flight request is answered are closed too.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();
    await closed;
    clearInterval(sweep);
    clearTimeout(forced);
    metricsServer?.close();
    await followers.stop();
    await mail.stop();
    await maintenance?.stop();
    await stopPurge();
    await webhooks.stop();
    await workerDb.close();
    await rateLimiters.close();
    await scans.close();
    await reads.stop();
    await positionsRedis?.close();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The server answers (health 503) while the database is unreachable, and migrates once it is back.
  logger.info('migrating the database');
  for (let delay = 250; !ready && !stopping; delay = Math.min(delay * 2, 10_000)) {
    try {
      const applied = await migrate(db.pool);
      logger.info({ applied }, applied.length > 0 ? 'migrations applied' : 'no migration to apply');
      ready = true;
      const url = serviceUrl(config.HOST, port);
      logger.info({ url }, `ready at ${url}`);
      // The first run: no business yet, so whoever started the service creates one in the browser.
      const setupLink = await issueSetupLink(db.pool, dashboardUrl(config));
      if (setupLink) logger.info({ url: setupLink }, `no business yet: open ${setupLink} to create the first one`);
      // The outbox exists from here on: retry what is due, including what a previous run left.
      mail.start();
      followers.start();
      maintenance?.start();
      const keys = new IdempotencyStore(db.pool, { ttlHours: config.IDEMPOTENCY_TTL_HOURS, now: () => new Date() });
      stopPurge = startIdempotencyPurge(keys, logger);
      if (config.WEBHOOK_DELIVERY) webhooks.start();
    } catch (err) {
      logger.error({ err, retryInMs: delay }, 'database not ready');
      await sleep(delay);
    }
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || (err instanceof Error && err.name === 'DataDirInUseError')) {
    console.error(err.message);
  } else {
    console.error('fatal:', err);
  }
  process.exit(1);
});
