import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/open.js';
import { migrate } from './db/migrate.js';
import { createRateLimiters } from './http/rate-limit.js';
import { createLogger } from './logger.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config, (err) => logger.warn({ err }, 'database connection lost'));

  const rateLimiters = createRateLimiters({
    limit: config.RATE_LIMIT_PER_MINUTE,
    failedAuthLimit: config.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
    redis: config.REDIS_URL ? { url: config.REDIS_URL } : undefined,
    logger,
  });

  let ready = false;
  const app = createApp({ db, logger, config, isReady: () => ready, rateLimiters });
  const server = app.listen(config.PORT, config.HOST);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port, host: config.HOST, database: db.mode }, 'listening');

  let stopping = false;
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
    await rateLimiters.close();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The server answers (health 503) while the database is unreachable, and migrates once it is back.
  for (let delay = 250; !ready && !stopping; delay = Math.min(delay * 2, 10_000)) {
    try {
      const applied = await migrate(db.pool);
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
      ready = true;
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
