import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { Queryable } from '../db/database.js';
import type { SqlQuery } from '../db/where.js';

/** Rows fetched per round trip: small enough to keep memory flat, large enough to keep round trips few. */
export const CURSOR_BATCH_SIZE = 500;

/** A row as an array of its column values, in the query's order (pg's rowMode 'array'). */
export type ValueRow = unknown[];

export type SnapshotOutcome = 'commit' | 'rollback';

export interface SnapshotCursor {
  /** What `count` returned, in the same snapshot the rows are read from. */
  readonly total: number;
  /** The next batch of rows; empty once the query is exhausted. */
  read(): Promise<ValueRow[]>;
  /** Closes the cursor, ends the transaction and releases the connection. Only the first call acts. */
  close(outcome: SnapshotOutcome): Promise<void>;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/**
 * Holds one pooled connection in a read-only REPEATABLE READ transaction, runs `count` and then opens
 * `query` as a cursor, so the total and the rows describe the same snapshot. The explicit transaction
 * is also what the embedded database needs: PGlite switches between socket connections only at
 * transaction boundaries, so a cursor outside one could interleave with another connection's queries.
 * One batch is read ahead of the caller: at most two batches are ever in memory.
 */
export async function openSnapshotCursor(
  pool: pg.Pool,
  count: (db: Queryable) => Promise<number>,
  query: SqlQuery,
): Promise<SnapshotCursor> {
  const client = await pool.connect();
  let cursor: Cursor<ValueRow> | undefined;
  let next: Promise<ValueRow[]> | undefined;
  let closing: Promise<void> | undefined;

  const finish = async (outcome: SnapshotOutcome) => {
    let broken: Error | undefined;
    try {
      await next?.catch(() => undefined); // a batch still in flight must land before the portal closes
      await cursor?.close();
      await client.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
    } catch (err) {
      // A connection that could not close its portal or end its transaction is discarded, not reused.
      broken = asError(err);
    } finally {
      client.release(broken);
    }
  };
  const close = (outcome: SnapshotOutcome) => (closing ??= finish(outcome));

  const fetchAfter = (opened: Cursor<ValueRow>, rows: ValueRow[]): Promise<ValueRow[]> => {
    if (rows.length < CURSOR_BATCH_SIZE) return Promise.resolve([]);
    const batch = opened.read(CURSOR_BATCH_SIZE);
    batch.catch(() => undefined); // rejections reach whoever awaits the batch; none may go unhandled meanwhile
    return batch;
  };

  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const total = await count(client);
    // Rows as value arrays: no object per row, the columns already in the order they are written out.
    const opened = client.query(new Cursor<ValueRow>(query.sql, query.params, { rowMode: 'array' }));
    cursor = opened;
    // The first batch is awaited here, so a failing query still fails before the response has begun.
    next = Promise.resolve(await opened.read(CURSOR_BATCH_SIZE));
    const read = async () => {
      const rows = await next!;
      // The next batch is requested at once: the database produces it while this one is being sent.
      next = fetchAfter(opened, rows);
      return rows;
    };
    return { total, read, close };
  } catch (err) {
    await close('rollback');
    throw err;
  }
}
