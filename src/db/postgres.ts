import { createPool, poolDatabase, type Database } from './database.js';

/**
 * Statements are prepared per connection (see PreparingClient). Not on the embedded database: its
 * socket connections share one session, where two connections would prepare the same name.
 */
export function openPostgres(
  url: string,
  onPoolError: (err: Error) => void,
  max = 10,
  applicationName = 'feedback-api',
): Database {
  const pool = createPool(
    { connectionString: url, max, connectionTimeoutMillis: 5_000, application_name: applicationName },
    onPoolError,
    { prepare: true },
  );
  return poolDatabase('postgres', pool, async () => {});
}
