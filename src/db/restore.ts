import { accessSync, constants, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import {
  BackupError,
  FORMAT,
  RESTORED_XID,
  VERSION,
  quote,
  schemaVersion,
  tablesOf,
  type BackupSummary,
} from './backup.js';
import { migrate, readMigrations, type Migration } from './migrate.js';

/** Rows sent to the database in one INSERT: a few MB of JSON at most. */
const INSERT_ROWS = 1_000;
/**
 * And characters of JSON in one INSERT: a logo's bytes (business_logos, up to ~1 MB as hex) make rows
 * far wider than the rest, so a batch ends at this size too.
 */
const INSERT_CHARS = 8 * 2 ** 20;

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
        let chars = 0;
        let rows = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          await loaded.query(insert, [`[${batch.join(',')}]`]);
          batch = [];
          chars = 0;
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
          chars += text.length;
          rows += 1;
          if (batch.length >= INSERT_ROWS || chars >= INSERT_CHARS) await flush();
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
