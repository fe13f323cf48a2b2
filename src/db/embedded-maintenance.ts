import type { Logger } from 'pino';
import type { Queryable } from './database.js';

/**
 * autovacuum's own defaults: a table is analyzed once 50 rows plus 10% of it changed since its last
 * analysis, and vacuumed once 50 rows plus 20% of it are dead.
 */
const THRESHOLDS = { analyze: 50, analyzeScale: 0.1, vacuum: 50, vacuumScale: 0.2 };

/** How often an embedded server looks for tables to maintain. */
export const MAINTENANCE_INTERVAL_MS = 60_000;

export interface Maintained {
  /** `VACUUM (ANALYZE)`: the table had many dead rows. */
  vacuumed: string[];
  /** `ANALYZE` alone: many rows changed since its statistics were taken. */
  analyzed: string[];
}

/**
 * What autovacuum would do now, done in this connection. PGlite runs PostgreSQL in single-user mode,
 * where no autovacuum daemon runs: without this, tables are never analyzed and the planner believes
 * every business has a handful of rows. It then reads and sorts a whole business to show fifty (a
 * list of 10,000 suggestions took 140 ms instead of 0.8 ms, issue 20), and updated rows are never
 * reclaimed. Table names come from the catalog, quoted by PostgreSQL.
 */
export async function maintainTables(db: Queryable): Promise<Maintained> {
  // Statistics are flushed to the views at most once a second; make this transaction's view current.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<{ name: string; vacuum: boolean }>(
    /* sql */ `
    SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS name,
           n_dead_tup > $3::float8 + $4::float8 * n_live_tup AS vacuum
    FROM pg_stat_user_tables
    WHERE n_dead_tup > $3::float8 + $4::float8 * n_live_tup
       OR n_mod_since_analyze > $1::float8 + $2::float8 * n_live_tup
    ORDER BY relname`,
    [THRESHOLDS.analyze, THRESHOLDS.analyzeScale, THRESHOLDS.vacuum, THRESHOLDS.vacuumScale],
  );
  const done: Maintained = { vacuumed: [], analyzed: [] };
  for (const { name, vacuum } of rows) {
    await db.query(vacuum ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
    (vacuum ? done.vacuumed : done.analyzed).push(name);
  }
  return done;
}

/**
 * Keeps an embedded database's statistics current: the whole database is analyzed once at start
 * (its change counters do not survive a restart, and rows may have come from the admin CLI while
 * no server ran), then maintainTables runs every `intervalMs`. Each pass holds PGlite's single
 * connection while it works (an ANALYZE samples at most 30,000 rows a table).
 */
export class EmbeddedMaintenance {
  readonly #db: Queryable;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(db: Queryable, logger: Logger, intervalMs = MAINTENANCE_INTERVAL_MS) {
    this.#db = db;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  start(): void {
    this.#run(async () => {
      await this.#db.query('ANALYZE');
      this.#logger.info('embedded database analyzed');
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #run(pass: () => Promise<void>): void {
    this.#running = pass()
      .catch((err: unknown) => this.#logger.warn({ err }, 'embedded database maintenance failed'))
      .finally(() => {
        if (this.#stopped) return;
        this.#timer = setTimeout(() => this.#run(() => this.#tick()), this.#intervalMs).unref();
      });
  }

  async #tick(): Promise<void> {
    const done = await maintainTables(this.#db);
    if (done.vacuumed.length + done.analyzed.length > 0) this.#logger.info(done, 'embedded database maintained');
  }
}
