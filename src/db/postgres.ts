import { createPool, poolDatabase, type Database } from './database.js';

export interface SessionSettings {
  /** How the connections are named in pg_stat_activity. */
  applicationName?: string;
  /**
   * Plan every statement for its values (plan_cache_mode): for a few statements over tables whose
   * contents change shape fast, where a generic plan chosen early goes bad (see openBackgroundDatabase).
   */
  customPlans?: boolean;
  /** How long a checkout waits for a new connection (5 s by default). */
  connectTimeoutMs?: number;
}

/**
 * Statements are prepared per connection (see PreparingClient). Not on the embedded database: its
 * socket connections share one session, where two connections would prepare the same name.
 */
export function openPostgres(
  url: string,
  onPoolError: (err: Error) => void,
  max = 10,
  session: SessionSettings = {},
): Database {
  const { applicationName = 'feedback-api', customPlans = false, connectTimeoutMs = 5_000 } = session;
  const pool = createPool(
    {
      connectionString: url,
      max,
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: applicationName,
      ...(customPlans ? { options: '-c plan_cache_mode=force_custom_plan' } : {}),
    },
    onPoolError,
    { prepare: true },
  );
  return poolDatabase('postgres', pool, async () => {});
}
