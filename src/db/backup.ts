import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type pg from 'pg';

/**
 * A backup is gzip'd lines of JSON, written from one snapshot of the database and read back into an
 * empty one, embedded or PostgreSQL alike (the move from one to the other is a backup and a restore):
 *
 *   {"format":"feedback-backup","version":1,"schema":"0040_…","taken_at":"…"}    the header
 *   {"@table":"businesses","columns":["id",…]}                                   a table begins
 *   {"id":"…","name":"…",…}                                                       its rows, as to_jsonb
 *   {"@end":"businesses","rows":2}                                                it ends, counted
 *   {"@sequences":{"public.events_seq_seq":1234,…}}
 *   {"@complete":{"tables":31,"rows":120000}}                                     the file is whole
 *
 * Rows are PostgreSQL's own JSON of each row (timestamps to the microsecond, bytea as hex, arrays,
 * jsonb), turned back into rows by jsonb_populate_recordset (restore.ts), so that no type passes through
 * JavaScript. Generated columns are left out and computed again. A row's keys are column names, which
 * never begin with "@".
 */
export const FORMAT = 'feedback-backup';
export const VERSION = 1;
const FETCH_ROWS = 2_000;

/** The transaction id every event of a restore that renumbered the feed carries (restore.ts). */
export const RESTORED_XID = '1';

export interface BackupSummary {
  schema: string;
  tables: number;
  rows: number;
}

interface Header {
  format: string;
  version: number;
  schema: string;
  taken_at: string;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface TableInfo {
  name: string;
  columns: string[];
  generated: string[];
}

/**
 * The tables of schema public that hold the service's data (a partitioned table as one, its partitions
 * not again), in name order: all but schema_migrations, which the migrations write.
 */
export async function tablesOf(client: pg.PoolClient): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; generated: string[] }>(/* sql */ `
    SELECT c.relname AS name,
           array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attgenerated = '') AS columns,
           coalesce(array_agg(a.attname::text) FILTER (WHERE a.attgenerated <> ''), '{}') AS generated
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND c.relname <> 'schema_migrations'
    GROUP BY c.relname
    ORDER BY c.relname`);
  return rows.map((row) => ({ name: row.name, columns: row.columns, generated: row.generated }));
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The last migration applied: the schema the rows belong to. */
export async function schemaVersion(client: pg.PoolClient): Promise<string | null> {
  const exists = await client.query(`SELECT to_regclass('public.schema_migrations') IS NOT NULL AS ok`);
  if (!(exists.rows[0] as { ok: boolean }).ok) return null;
  const { rows } = await client.query<{ version: string | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return rows[0]?.version ?? null;
}

/**
 * Writes a backup of the database to `file` from one REPEATABLE READ snapshot: what it holds is the
 * database at one instant while the service goes on writing (on the embedded database, whose one
 * session the snapshot holds, the service's queries wait until the backup is written).
 */
export async function backup(pool: pg.Pool, file: string): Promise<BackupSummary> {
  const client = await pool.connect();
  const gzip = createGzip();
  // Never over an older backup: a failed run would leave neither.
  const out = createWriteStream(file, { flags: 'wx' });
  const opened = once(out, 'open').catch((err: NodeJS.ErrnoException) => {
    throw new BackupError(
      err.code === 'EEXIST' ? `${file} exists: choose another file` : `cannot write ${file}: ${err.message}`,
    );
  });
  const piped = (async () => {
    for await (const chunk of gzip) if (!out.write(chunk)) await once(out, 'drain');
    out.end();
    await once(out, 'close');
  })();
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  try {
    await opened;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schema = await schemaVersion(client);
    if (!schema) throw new BackupError('the database has no schema yet: there is nothing to back up');
    const header: Header = { format: FORMAT, version: VERSION, schema, taken_at: new Date().toISOString() };
    await write(JSON.stringify(header));
    const tables = await tablesOf(client);
    let total = 0;
    for (const table of tables) {
      await write(JSON.stringify({ '@table': table.name, columns: table.columns }));
      await client.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT (to_jsonb(t) - $1::text[])::text AS row FROM ${quote(table.name)} t`,
        [table.generated],
      );
      let rows = 0;
      for (;;) {
        const batch = await client.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`);
        for (const { row } of batch.rows) await write(row);
        rows += batch.rows.length;
        if (batch.rows.length < FETCH_ROWS) break;
      }
      await client.query('CLOSE backup_rows');
      await write(JSON.stringify({ '@end': table.name, rows }));
      total += rows;
    }
    const sequences = await client.query<{ name: string; value: string | null }>(
      `SELECT schemaname || '.' || sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public'`,
    );
    await write(JSON.stringify({ '@sequences': Object.fromEntries(sequences.rows.map((s) => [s.name, s.value])) }));
    await write(JSON.stringify({ '@complete': { tables: tables.length, rows: total } }));
    await client.query('COMMIT');
    gzip.end();
    await piped;
    return { schema, tables: tables.length, rows: total };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    gzip.destroy();
    out.destroy();
    if (!(err instanceof BackupError && err.message.endsWith('choose another file'))) rmSync(file, { force: true });
    throw err;
  } finally {
    client.release();
  }
}
