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
