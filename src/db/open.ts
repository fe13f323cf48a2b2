import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { eachHost, hostName, isHostList, parseHostList } from '../config/connection-string.js';
import type { Database } from './database.js';
import { openEmbedded } from './embedded.js';
import { openPostgres } from './postgres.js';
import { MemoryPositions, RedisPositions, type RedisCommands } from './replica-positions.js';
import { ReadReplicas, type ReadObserver, type ReplicaStatus } from './replicas.js';

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

/** host:port of a connection string: how a replica is named in logs and metrics (never its password). */
function replicaName(url: string): string {
  if (isHostList(url)) return hostName(parseHostList(url).hosts[0]!);
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5432'}`;
}

/**
 * The read replicas of DATABASE_READ_URL (none: every read on the primary), each with a pool as big
 * as the primary's, short to connect so that a replica that went away costs a request little. Business
 * positions are kept in Redis when `redis` is given (every instance then knows every write), in memory
 * otherwise. The caller starts and stops it.
 */
export function openReadReplicas(
  config: Pick<Config, 'DATABASE_READ_URL' | 'READ_REPLICA_MAX_LAG_MS'>,
  db: Database,
  onPoolError: (err: Error) => void,
  logger: Logger,
  metrics?: { readObserver(replicas: () => ReplicaStatus[]): ReadObserver },
  redis?: RedisCommands,
): ReadReplicas {
  // A formation's standbys named in one string (h1:p1,h2:p2) are read one by one, each its own replica.
  const urls = (db.mode === 'postgres' ? config.DATABASE_READ_URL : []).flatMap((url) =>
    isHostList(url) ? eachHost(url) : [url],
  );
  const replicas = urls.map((url) => ({
    name: replicaName(url),
    pool: openPostgres(url, onPoolError, 10, { applicationName: 'feedback-api-reads', connectTimeoutMs: 1_000 }).pool,
  }));
  const reads: ReadReplicas = new ReadReplicas(db.pool, {
    replicas,
    maxLagMs: config.READ_REPLICA_MAX_LAG_MS,
    positions: redis ? new RedisPositions(redis) : new MemoryPositions(),
    logger,
    observer: metrics?.readObserver(() => reads.status()),
  });
  return reads;
}
