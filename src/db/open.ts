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
 */
export function openBackgroundDatabase(
  config: Pick<Config, 'DATABASE_URL'>,
  db: Database,
  onPoolError: (err: Error) => void,
  max: number,
  applicationName: string,
): { db: Database; close: () => Promise<void> } {
  if (db.mode !== 'postgres' || !config.DATABASE_URL) return { db, close: async () => {} };
  const own = openPostgres(config.DATABASE_URL, onPoolError, max, applicationName);
  return { db: own, close: () => own.close() };
}
