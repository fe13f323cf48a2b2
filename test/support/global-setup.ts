import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openEmbedded, PGLITE_OPTIONS } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated embedded database: each test file starts from it in under a second. */
    pgliteTemplate: string;
    /**
     * A migrated embedded DATA_DIR for server and CLI processes to start from a copy of: copying and
     * opening it takes about a second, where a fresh directory runs initdb (several seconds idle, tens
     * on a loaded 2-core machine).
     */
    dataDirTemplate: string;
  }
}

/** Boots and migrates PGlite once per run, instead of once per test file (initdb takes seconds). */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'fbk-template-'));
  const db = await openEmbedded({ dataDir: dir, inMemory: true, onPoolError: () => undefined });
  await migrate(db.pool);
  const dump = await db.dump!();
  await db.close();
  const file = join(dir, 'template.tar');
  const tar = Buffer.from(await dump.arrayBuffer());
  writeFileSync(file, tar);
  project.provide('pgliteTemplate', file);

  // The same database on disk, where `src/main.ts` and the admin CLI expect DATA_DIR/pgdata.
  const dataDir = join(dir, 'data-dir');
  mkdirSync(dataDir);
  const onDisk = await PGlite.create(join(dataDir, 'pgdata'), { ...PGLITE_OPTIONS, loadDataDir: new Blob([tar]) });
  await onDisk.close();
  project.provide('dataDirTemplate', dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
