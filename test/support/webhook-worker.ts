/**
 * A webhook worker alone in a process of its own, on PostgreSQL, for tests that kill it mid-delivery.
 * Scoped to BUSINESS_ID, as every test's workers are (test files share the database).
 */
import { createLogger } from '../../src/config/logger.js';
import { openPostgres } from '../../src/db/postgres.js';
import { WebhookWorker } from '../../src/webhooks/webhook.worker.js';

const logger = createLogger('info');
const db = openPostgres(process.env.DATABASE_URL!, (err) => logger.warn({ err }, 'pool error'), 2);
const worker = new WebhookWorker(db, logger, { allowPrivateNetworks: true, businessIds: [process.env.BUSINESS_ID!] });
worker.start();
logger.info('webhook worker started');
