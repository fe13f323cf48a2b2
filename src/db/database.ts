import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlQuery } from './where.js';

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

export interface Database {
  readonly mode: 'postgres' | 'embedded';
  readonly pool: pg.Pool;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /** host:port connected to, for a connection string naming several hosts (a failover formation). */
  host?(): string | undefined;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Type parsers set once, where pools are made: counts (int8) and numerics come back as numbers.
 * Counts never approach 2^53, so the conversion is exact.
 */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format) as unknown;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

const statementNames = new Map<string, string>();

/** The same name for the same text, in every connection: a digest of it. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `fbk_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A client that runs every parameterised query as a named prepared statement: PostgreSQL parses it
 * once per connection and, once it has seen that a generic plan does as well, stops planning it.
 * Query texts are constants with `$n` placeholders (values never go into the text), so there are as
 * many statements as code paths. Queries without values (BEGIN, migrations), and those given as a
 * QueryConfig (querySql's per-value statements), run as they are.
 */
class PreparingClient extends pg.Client {
  // One implementation for all of pg's overloads; only (text, values[, callback]) changes.
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const query = super.query.bind(this) as (...queryArgs: unknown[]) => never;
    if (typeof text === 'string' && Array.isArray(values)) {
      return query({ name: statementName(text), text, values }, callback);
    }
    return query(...args);
  }
}

/**
 * The client class a PostgreSQL pool makes: PreparingClient, telling `onHostSuspect` when it cannot
 * connect, or when its host refuses a write for being read-only (a primary demoted under it): a pool
 * over several hosts then looks for the one to use. Such a connection is ended at once, so it is
 * never handed out again (its transaction's ROLLBACK fails, and it is released as broken).
 */
export function preparingClient(onHostSuspect?: () => void): typeof pg.Client {
  if (!onHostSuspect) return PreparingClient;
  return class ReportingClient extends PreparingClient {
    // pg-pool connects with a callback; the promise form is kept for anyone else.
    override connect(...args: unknown[]): never {
      const [callback] = args as [((err?: Error) => void) | undefined];
      const connect = super.connect.bind(this) as (...connectArgs: unknown[]) => never;
      if (callback) {
        return connect((err?: Error) => {
          if (err) onHostSuspect();
          callback(err);
        });
      }
      return (connect() as Promise<void>).catch((err: unknown) => {
        onHostSuspect();
        throw err;
      }) as never;
    }

    override query(...args: unknown[]): never {
      const result = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
      if (result instanceof Promise) {
        // The caller handles the rejection; this only watches it.
        result.catch((err: unknown) => {
          if ((err as { code?: string }).code !== READ_ONLY_SQL_TRANSACTION) return;
          onHostSuspect();
          void this.end().catch(() => undefined);
        });
      }
      return result as never;
    }
  };
}

/** PostgreSQL's read_only_sql_transaction: a write sent to a host that takes none. */
export const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * Runs a built statement: as a prepared statement, or, when `perValue`, planned for its values every
 * time it runs (an unnamed statement; a prepared one settles on a generic plan after five runs). For
 * filters whose best plan depends on the value: a page of a business's newest rows carrying a tag on
 * one row in twenty is found fastest by walking the creation-time index, one on one row in ten
 * thousand by the tag's GIN index; the generic plan, estimating every tag alike, read all 10,000
 * matches through the GIN index and sorted them for the first (47 ms against 12 ms for the plain page
 * at 200,000 suggestions; planned for its value, under 1 ms). Planning costs a fraction of a millisecond.
 */
export function querySql<Row extends pg.QueryResultRow>(
  db: Queryable,
  { sql, params, perValue = false }: SqlQuery,
): Promise<pg.QueryResult<Row>> {
  return perValue ? db.query<Row>({ text: sql, values: params }) : db.query<Row>(sql, params);
}

/**
 * A transaction a request runs in (an Idempotency-Key's: its stored response commits with its write).
 * While it is open, every query of the request on its pool, and every withTransaction, runs in it:
 * the embedded database has a single connection, which another checkout would wait for forever.
 */
interface RequestTransaction {
  readonly pool: pg.Pool;
  readonly client: pg.PoolClient;
  open: boolean;
  readonly afterCommit: (() => void)[];
}

const requestTransaction = new AsyncLocalStorage<RequestTransaction>();

function joinedClient(pool: pg.Pool): pg.PoolClient | undefined {
  const tx = requestTransaction.getStore();
  return tx?.open && tx.pool === pool ? tx.client : undefined;
}

/**
 * Runs `work` (and everything it starts) inside the transaction open on `client`, taken from `pool`;
 * the caller begins and ends the transaction. Answers `work`'s result and the callbacks that were
 * deferred to after the commit (`afterCommit`), for the caller to run once it has committed.
 */
export async function runInTransaction<T>(
  pool: pg.Pool,
  client: pg.PoolClient,
  work: () => Promise<T>,
): Promise<{ result: T; afterCommit: (() => void)[] }> {
  const tx: RequestTransaction = { pool, client, open: true, afterCommit: [] };
  try {
    const result = await requestTransaction.run(tx, work);
    return { result, afterCommit: tx.afterCommit };
  } finally {
    // Anything `work` left running (a message being sent) uses the pool again from here on.
    tx.open = false;
  }
}

/** Runs `callback` once the current request transaction commits, or now when there is none. */
export function afterCommit(callback: () => void): void {
  const tx = requestTransaction.getStore();
  if (tx?.open) tx.afterCommit.push(callback);
  else callback();
}

/** A pool whose queries join the request transaction opened on it, when there is one. */
class JoiningPool extends pg.Pool {
  // One implementation for all of pg's overloads.
  override query(...args: unknown[]): never {
    const client = joinedClient(this);
    const query = (client ? client.query.bind(client) : super.query.bind(this)) as (...queryArgs: unknown[]) => never;
    return query(...args);
  }
}

export function createPool(
  config: pg.PoolConfig,
  onError: (err: Error) => void,
  { Client }: { Client?: typeof pg.Client } = {},
): pg.Pool {
  const pool = new JoiningPool({ ...config, types: typeParsers, ...(Client ? { Client } : {}) });
  // A dropped idle connection must never crash the process; the next checkout reconnects.
  pool.on('error', onError);
  // Nor may one that dies while checked out (a terminated backend emits 'error' on its client after
  // the failed query has already been answered): the query's own rejection is what callers handle.
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

export function poolDatabase(mode: Database['mode'], pool: pg.Pool, onClose: () => Promise<void>): Database {
  return {
    mode,
    pool,
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
      await onClose();
    },
  };
}

/**
 * COMMIT, refusing PostgreSQL's answer to a transaction that an earlier error aborted: it says
 * "ROLLBACK" instead of failing, and such a write must never be acknowledged as done.
 */
export async function commit(client: Pick<pg.ClientBase, 'query'>): Promise<void> {
  const { command } = await client.query('COMMIT');
  if (command === 'ROLLBACK')
    throw new Error('the transaction was rolled back at its commit: a statement in it had failed');
}

/** Runs `work` in a transaction: its own, or the request transaction open on `pool`, which it then joins. */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const joined = joinedClient(pool);
  if (joined) return work(joined);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await commit(client);
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw err;
  } finally {
    // A connection that could not even roll back is discarded rather than reused.
    client.release(broken);
  }
}

/**
 * Runs `work` in one transaction that every query it makes on `pool` joins, as a request transaction
 * (runInTransaction): for a service that composes other services' writes, each written against the
 * pool. What they deferred to the commit runs after it; inside a request transaction, `work` joins it.
 */
export async function inTransaction<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  if (joinedClient(pool)) return work();
  let deferred: (() => void)[] = [];
  const result = await withTransaction(pool, async (client) => {
    const ran = await runInTransaction(pool, client, work);
    deferred = ran.afterCommit;
    return ran.result;
  });
  for (const callback of deferred) callback();
  return result;
}
