import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { digestKey } from '../../src/auth/key-format.js';
import type { Queryable } from '../../src/db/database.js';
import { PGLITE_OPTIONS } from '../../src/db/embedded.js';
import { findSuggestionPage } from '../../src/suggestions/suggestion.repository.js';

type QueryConfig = { text: string; values?: unknown[]; rowMode?: string };

/**
 * The floor of the embedded list (issue 20 §3): PGlite running the list's own statements (the key
 * lookup, then the page with its total) in a loop in this process, with no HTTP, socket or pool in
 * between; lists per second over `seconds`. Opens `dataDir` itself, so its server must be stopped.
 */
export async function pgliteListFloorRps(dataDir: string, key: string, seconds: number): Promise<number> {
  const pglite = await PGlite.create(join(dataDir, 'pgdata'), PGLITE_OPTIONS);
  // The repositories take pg's query(text | config, values); PGlite's own query takes the same parts.
  const db = {
    query: (config: string | QueryConfig, values?: unknown[]) =>
      typeof config === 'string'
        ? pglite.query(config, values)
        : pglite.query(config.text, config.values ?? values, config.rowMode === 'array' ? { rowMode: 'array' } : {}),
  } as unknown as Queryable;
  try {
    const digest = digestKey(key);
    const page = { sort: 'created_at', order: 'desc', limit: 50, offset: 0 } as const;
    let lists = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      const credential = await findKeyCredential(db, digest);
      if (!credential) throw new Error('the PGlite floor found no key');
      await findSuggestionPage(db, credential.business_id, {}, page);
      lists++;
    }
    return lists / ((performance.now() - started) / 1000);
  } finally {
    await pglite.close();
  }
}
