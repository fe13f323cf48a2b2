import type { Config } from '../config/config.js';
import type { Database } from './database.js';
import { openEmbedded } from './embedded.js';
import { openPostgres } from './postgres.js';

/** PostgreSQL when DATABASE_URL is set, the embedded database in DATA_DIR otherwise. */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  onPoolError: (err: Error) => void,
  options: { allowClient?: boolean } = {},
): Promise<Database> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, onPoolError);
  return openEmbedded({ dataDir: config.DATA_DIR, allowClient: options.allowClient, onPoolError });
}

/**
 * Connections of their own for background work whose statements must not wait in line behind the
 * requests' (the webhook worker): a pool of `max` on PostgreSQL, named `applicationName` in
 * pg_stat_activity, closed with `close`. The embedded database has one connection: the work shares
 * it, and `close` leaves it open.
 *
 * Its statements are planned for their values every time. The worker's claim, prepared while the
 * queue was empty (polls every 2 s before any delivery), kept a generic plan that grew with the
 * delivered rows: after a server's first minutes its claim took most of a core and deliveries
 * arrived a second late (p50 1,007 ms at 80% of the create capacity; 28 ms planned each time).
 */
export function openBackgroundDatabase(
  config: Pick<Config, 'DATABASE_URL'>,
  db: Database,
  onPoolError: (err: Error) => void,
  max: number,
  applicationName: string,
): { db: Database; close: () => Promise<void> } {
  if (db.mode !== 'postgres' || !config.DATABASE_URL) return { db, close: async () => {} };
  const own = openPostgres(config.DATABASE_URL, onPoolError, max, { applicationName, customPlans: true });
  return { db: own, close: () => own.close() };
}
