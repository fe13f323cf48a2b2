import { createPool, poolDatabase, type Database } from './database.js';

export function openPostgres(url: string, onPoolError: (err: Error) => void, max = 10): Database {
  const pool = createPool(
    { connectionString: url, max, connectionTimeoutMillis: 5_000, application_name: 'feedback-api' },
    onPoolError,
  );
  return poolDatabase('postgres', pool, async () => {});
}
