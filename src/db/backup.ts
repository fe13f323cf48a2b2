import { accessSync, constants, createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { migrate, readMigrations, type Migration } from './migrate.js';

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
 * jsonb), turned back into rows by jsonb_populate_recordset, so that no type passes through
 * JavaScript. Generated columns are left out and computed again. A row's keys are column names, which
 * never begin with "@".
 */
const FORMAT = 'feedback-backup';
const VERSION = 1;
const FETCH_ROWS = 2_000;
/** Rows sent to the database in one INSERT on restore: a few MB of JSON at most. */
const INSERT_ROWS = 1_000;

/** The transaction id every event of a restore that renumbered the feed carries (see placeFeedBelowNewWrites). */
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

interface TableInfo {
  name: string;
  columns: string[];
  generated: string[];
}

/**
 * The tables of schema public that hold the service's data (a partitioned table as one, its partitions
 * not again), in name order: all but schema_migrations, which the migrations write.
 */
async function tablesOf(client: pg.PoolClient): Promise<TableInfo[]> {
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

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The last migration applied: the schema the rows belong to. */
async function schemaVersion(client: pg.PoolClient): Promise<string | null> {
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

/** A database is empty for a restore when none of its tables holds a row (a migrated one may be). */
async function refuseUnlessEmpty(client: pg.PoolClient): Promise<void> {
  const tables = await tablesOf(client);
  const holding: string[] = [];
  for (const table of tables) {
    const { rows } = await client.query(`SELECT 1 FROM ${quote(table.name)} LIMIT 1`);
    if (rows.length > 0) holding.push(table.name);
  }
  if (holding.length > 0) {
    throw new BackupError(
      `the database is not empty (${holding.slice(0, 3).join(', ')}${holding.length > 3 ? ', …' : ''} hold rows): ` +
        'restore only into a new, empty database',
    );
  }
}

function parseLine(line: string, lineNumber: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new BackupError(`line ${lineNumber} of the backup is not a JSON object: the file is damaged`);
}

/**
 * Loads a backup into an empty database: the migrations up to the backup's schema, its rows and
 * sequences in one transaction (triggers and foreign-key checks off, as the rows were consistent
 * when read: counts are copied, not counted again), then the migrations that came after. Nothing is
 * left half loaded: a damaged or cut-short file rolls the rows back.
 */
export async function restore(
  pool: pg.Pool,
  file: string,
  migrations: Migration[] = readMigrations(),
): Promise<BackupSummary & { feed_cursors: FeedAfterRestore; migrated_after: string[] }> {
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator: AsyncIterator<string, undefined> = lines[Symbol.asyncIterator]();
  let lineNumber = 0;
  /** The next line's text, null at the end; a file gzip cannot read is a damaged backup. */
  const nextText = async (): Promise<string | null> => {
    let step: IteratorResult<string, undefined>;
    try {
      step = await iterator.next();
    } catch (err) {
      throw new BackupError(`the backup cannot be read after line ${lineNumber}: ${(err as Error).message}`);
    }
    if (step.done) return null;
    lineNumber += 1;
    return step.value;
  };
  const next = async (): Promise<Record<string, unknown> | null> => {
    const text = await nextText();
    return text === null ? null : parseLine(text, lineNumber);
  };

  let header: Record<string, unknown> | null;
  try {
    header = await next();
  } catch (err) {
    throw new BackupError(`${file} is not a backup (${(err as Error).message})`);
  }
  if (header?.format !== FORMAT || typeof header.schema !== 'string') throw new BackupError(`${file} is not a backup`);
  if (header.version !== VERSION)
    throw new BackupError(`backup format ${String(header.version)} is not one this version reads`);
  const schema = header.schema;
  if (!migrations.some((m) => m.version === schema)) {
    throw new BackupError(
      `the backup's schema ${schema} is not one this version knows: restore with the version that made it, or a newer one`,
    );
  }

  const client = await pool.connect();
  try {
    await refuseUnlessEmpty(client);
    const target = await schemaVersion(client);
    if (target && target > schema) {
      throw new BackupError(
        `the database is migrated past the backup's schema (${target} > ${schema}): restore into a new database`,
      );
    }
  } finally {
    client.release();
  }
  await migrate(
    pool,
    migrations.filter((m) => m.version <= schema),
  );

  const loaded = await pool.connect();
  let tables = 0;
  let total = 0;
  let feed: FeedAfterRestore;
  try {
    await loaded.query('BEGIN');
    // Rows go in as they were: no trigger counts them again, no foreign key waits for its parent.
    await loaded.query('SET LOCAL session_replication_role = replica');
    const present = await tablesOf(loaded);
    await loaded.query(`TRUNCATE ${present.map((t) => quote(t.name)).join(', ')}`);
    const known = new Map(present.map((t) => [t.name, t]));
    let complete = false;
    for (let line = await next(); line; line = await next()) {
      if (typeof line['@table'] === 'string') {
        const name = line['@table'];
        if (!known.has(name)) throw new BackupError(`the backup has a table ${name} that schema ${schema} has not`);
        const columns = (line.columns as string[]).map(quote).join(', ');
        const insert = `INSERT INTO ${quote(name)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM jsonb_populate_recordset(NULL::${quote(name)}, $1::jsonb)`;
        let batch: string[] = [];
        let rows = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          await loaded.query(insert, [`[${batch.join(',')}]`]);
          batch = [];
        };
        for (;;) {
          const text = await nextText();
          if (text === null) throw new BackupError(`the backup ends inside table ${name}: the file is cut short`);
          if (text.startsWith('{"@end"')) {
            const end = parseLine(text, lineNumber);
            if (end['@end'] !== name || end.rows !== rows) {
              throw new BackupError(
                `table ${name} holds ${rows} rows in the backup, its end line says ${String(end.rows)}`,
              );
            }
            break;
          }
          batch.push(text);
          rows += 1;
          if (batch.length >= INSERT_ROWS) await flush();
        }
        await flush();
        tables += 1;
        total += rows;
      } else if (line['@sequences']) {
        for (const [sequence, value] of Object.entries(line['@sequences'] as Record<string, string | null>)) {
          if (value !== null) await loaded.query('SELECT setval($1::regclass, $2::bigint, true)', [sequence, value]);
        }
      } else if (line['@complete']) {
        complete = true;
        break;
      } else {
        throw new BackupError(`line ${lineNumber} of the backup is out of place: the file is damaged`);
      }
    }
    if (!complete) throw new BackupError('the backup has no end: the file is cut short');
    feed = await placeFeedBelowNewWrites(loaded);
    await loaded.query('COMMIT');
  } catch (err) {
    await loaded.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    loaded.release();
    lines.close();
  }
  const migratedAfter = await migrate(pool, migrations);
  await pool.query('ANALYZE');
  return { schema, tables, rows: total, feed_cursors: feed, migrated_after: migratedAfter };
}

/**
 * What a restore did to the event feed's positions: `kept` when every event's writing transaction
 * id is below this database's next one (cursors from before the move go on working), `restart` when
 * it is not (a new cluster, younger than the old one).
 */
export type FeedAfterRestore = 'kept' | 'restart';

/**
 * The feed orders events by their writing transaction's id (events.xid) and shows only those below
 * the oldest running transaction. Ids come from the old cluster: on a younger one they could lie
 * above every new transaction's, hiding the restored events and sorting new ones before them. Then
 * every restored event takes the id 1, below any real one (those begin at 3), in its old seq order:
 * final and first; a cursor from before the move is then refused with a 410 (event.service.ts).
 */
async function placeFeedBelowNewWrites(client: pg.PoolClient): Promise<FeedAfterRestore> {
  const { rows } = await client.query<{ below: boolean }>(
    `SELECT coalesce(max(xid) < pg_current_xact_id(), true) AS below FROM events`,
  );
  if (rows[0]!.below) return 'kept';
  await client.query(`UPDATE events SET xid = '${RESTORED_XID}'::xid8`);
  return 'restart';
}
