import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { digestKey } from '../../src/auth/key-format.js';
import { openEmbedded } from '../../src/db/embedded.js';
import { findSuggestionPage } from '../../src/suggestions/suggestion.repository.js';

/**
 * The floor of the embedded list (issue 20 §3): the service's own embedded database layer (PGlite,
 * its socket and the pg pool, with the same prepared statements) running the list's statements (the
 * key lookup, then the page with its total) in a loop in this process, with no HTTP and no framework;
 * lists per second over `seconds`. Opens `dataDir` itself, so its server must be stopped first.
 */
export async function pgliteListFloorRps(dataDir: string, key: string, seconds: number): Promise<number> {
  const db = await openEmbedded({ dataDir, onPoolError: () => undefined });
  try {
    const digest = digestKey(key);
    const page = { sort: 'created_at', order: 'desc', limit: 50, offset: 0 } as const;
    let lists = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      const credential = await findKeyCredential(db.pool, digest);
      if (!credential) throw new Error('the PGlite floor found no key');
      await findSuggestionPage(db.pool, credential.business_id, {}, page);
      lists++;
    }
    return lists / ((performance.now() - started) / 1000);
  } finally {
    await db.close();
  }
}
