import pg from 'pg';
import { createPool, poolDatabase, preparingClient, type Database } from './database.js';
import { hostName, isHostList, parseHostList, type HostList } from '../config/connection-string.js';
import { HostFinder, WrongHostError, hasAttrs } from './hosts.js';

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
  /** Told when a many-host connection string's pool moves to another host (undefined: none found). */
  onHostChange?: (host: string | undefined) => void;
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
  const common = {
    max,
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: applicationName,
    ...(customPlans ? { options: '-c plan_cache_mode=force_custom_plan' } : {}),
  };
  if (!isHostList(url)) {
    const pool = createPool({ connectionString: url, ...common }, onPoolError, { Client: preparingClient() });
    return poolDatabase('postgres', pool, async () => {});
  }
  return openHostList(parseHostList(url), common, onPoolError, session.onHostChange);
}

/**
 * A pool over a list of hosts (a pg_auto_failover formation): new connections go to the host last
 * found to be what `target_session_attrs` asks for. A connection that fails, a connected host that
 * is no longer what is asked (checked on every new connection) or a connection that breaks sends the
 * finder looking again, and the next connections go where it points: the pool follows the primary
 * without a restart. Until one is found, checkouts fail as the database being away does (a 503).
 */
function openHostList(
  list: HostList,
  common: pg.PoolConfig,
  onPoolError: (err: Error) => void,
  onHostChange?: SessionSettings['onHostChange'],
): Database {
  const finder = new HostFinder(list, {
    connectTimeoutMs: Math.min(common.connectionTimeoutMillis ?? 5_000, 2_000),
    onChange: (found) => {
      if (found) Object.assign(pool.options, found);
      onHostChange?.(found && hostName(found));
    },
  });
  const suspect = () => void finder.suspect();
  const checkHost = async (client: pg.ClientBase): Promise<void> => {
    if (await hasAttrs(client, list.attrs)) return;
    const { host, port } = client as pg.Client;
    suspect();
    throw new WrongHostError({ host, port }, list.attrs);
  };
  const pool = createPool(
    {
      ...list.config,
      ...common,
      ...finder.current,
      // pg-pool awaits the promise before it hands the connection out, and ends it on a rejection
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- awaited by pg-pool (its types say void)
      onConnect: checkHost,
    },
    (err) => {
      suspect();
      onPoolError(err);
    },
    { Client: preparingClient(suspect) },
  );
  // A checkout while the finder searches waits for its answer instead of connecting to the host being
  // replaced (pool.query checks out through connect too). The first search starts now: the list's
  // first host may be a standby, and the first request (or migration) must not be the one to find out.
  const connect = pool.connect.bind(pool) as (cb?: (...args: unknown[]) => void) => unknown;
  const waitingConnect = (cb?: (...args: unknown[]) => void): unknown => {
    const search = finder.searching;
    if (!search) return connect(cb);
    const after = search.catch(() => false);
    if (!cb) return after.then(() => connect());
    void after.then(() => connect(cb));
    return undefined;
  };
  pool.connect = waitingConnect as typeof pool.connect;
  suspect();
  return {
    ...poolDatabase('postgres', pool, async () => {}),
    host: () => (finder.found ? hostName(finder.current) : undefined),
  };
}
