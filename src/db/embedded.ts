import { mkdirSync, rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createPool, poolDatabase, type Database } from './database.js';
import { SessionQueue } from './embedded-session.js';
import { tryLock } from './file-lock.js';

const SOCKET_PORT = 5432;
/** The owning process's pool plus room for an admin CLI connected while the server runs. */
const MAX_SOCKET_CONNECTIONS = 4;

export interface EmbeddedOptions {
  /** Directory holding the database, its lock and its socket. */
  dataDir: string;
  /** Keep the data in memory only (tests); dataDir then only holds the socket. */
  inMemory?: boolean;
  /** When another process owns dataDir, connect through its socket instead of failing (the admin CLI). */
  allowClient?: boolean;
  /** Start an in-memory database from a dump (see EmbeddedDatabase.dump): much faster than initdb. */
  loadDataDir?: Blob;
  onPoolError: (err: Error) => void;
}

/** The owning process's embedded database can also be dumped, e.g. as a migrated template for tests. */
export interface EmbeddedDatabase extends Database {
  dump?: () => Promise<Blob>;
}

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

function socketPool(dir: string, onPoolError: (err: Error) => void) {
  // PGlite is a single-session database: one connection from this process, queries queued in order.
  return createPool({ host: dir, port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1 }, onPoolError);
}

/**
 * The PostgreSQL extensions the migrations create, which PGlite ships as contrib modules to load:
 * btree_gin lets the search index lead with business_id (0015_search_per_business.sql); pg_trgm and
 * btree_gist find likely duplicates (0027_merging.sql).
 */
export const PGLITE_OPTIONS = { extensions: { btree_gin, btree_gist, pg_trgm } } satisfies PGliteOptions;

/**
 * The server's connections share PGlite's session through SessionQueue instead of the package's own
 * queue (see there why). The server hands its `queryQueue` to each connection as it comes, so it is
 * swapped before the first; the check fails loudly if an upgrade of the package renames it.
 */
function useSessionQueue(server: PGLiteSocketServer, pglite: PGlite): void {
  const internals = server as unknown as { queryQueue?: unknown };
  if (!internals.queryQueue) throw new Error('pglite-socket changed: PGLiteSocketServer has no queryQueue to replace');
  internals.queryQueue = new SessionQueue(pglite);
}

/**
 * Opens PGlite in this process and serves it on a Unix socket inside the data directory, so the
 * application talks to it with the same `pg` client as to PostgreSQL. Exactly one process owns the
 * directory (a pid lock file); another one either connects through the socket or is refused.
 */
export async function openEmbedded(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dir = resolve(options.dataDir);
  mkdirSync(dir, { recursive: true });
  const socketPath = join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  const lock = tryLock(join(dir, 'owner.lock'));

  if ('heldBy' in lock) {
    if (options.allowClient && existsSync(socketPath)) {
      const pool = socketPool(dir, options.onPoolError);
      return poolDatabase('embedded', pool, async () => {});
    }
    throw new DataDirInUseError(
      `The data directory ${dir} is in use by process ${lock.heldBy}. ` +
        'Stop that process, or point DATA_DIR elsewhere.',
    );
  }

  try {
    rmSync(socketPath, { force: true }); // left behind by a process that died
    const pglite = options.inMemory
      ? await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: options.loadDataDir })
      : await PGlite.create(join(dir, 'pgdata'), PGLITE_OPTIONS);
    const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: MAX_SOCKET_CONNECTIONS });
    useSessionQueue(server, pglite);
    await server.start();
    const pool = socketPool(dir, options.onPoolError);
    const db = poolDatabase('embedded', pool, async () => {
      await server.stop();
      await pglite.close();
      rmSync(socketPath, { force: true });
      lock.release();
    });
    return { ...db, dump: () => pglite.dumpDataDir('none') };
  } catch (err) {
    lock.release();
    throw err;
  }
}
