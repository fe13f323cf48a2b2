import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated embedded database: each test file starts from it in under a second. */
    pgliteTemplate: string;
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
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
