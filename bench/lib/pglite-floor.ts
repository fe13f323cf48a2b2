import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { digestKey } from '../../src/auth/key-format.js';
import { openEmbedded } from '../../src/db/embedded.js';
import { findSuggestionPage } from '../../src/suggestions/suggestion.repository.js';
import type { LoadResult } from './load.js';
import { percentile } from './stats.js';

/**
 * The floor of the embedded list (issue 20 §3): the service's own embedded database layer (PGlite,
 * its socket and the pg pool, with the same prepared statements) running the list's statements (the
 * key lookup, then the page with its total) in a loop in this process, with no HTTP and no framework.
 * Opens `dataDir` and keeps it open (a copy of the server's: one owner per directory), so that each
 * `measure` can be taken in turn with the server's runs, under the same load on the machine.
 */
export async function openPgliteListFloor(dataDir: string, key: string) {
  const db = await openEmbedded({ dataDir, onPoolError: () => undefined });
  const digest = digestKey(key);
  const page = { sort: 'created_at', order: 'desc', limit: 50, offset: 0 } as const;
  return {
    /** Lists for `seconds`, one after another, as the server's single connection serves them. */
    async measure(seconds: number): Promise<LoadResult> {
      const latencies: number[] = [];
      const started = performance.now();
      const until = started + seconds * 1000;
      for (let at = started; at < until;) {
        const credential = await findKeyCredential(db.pool, digest);
        if (!credential) throw new Error('the PGlite floor found no key');
        await findSuggestionPage(db.pool, credential.business_id, {}, page);
        const now = performance.now();
        latencies.push(now - at);
        at = now;
      }
      const requests = latencies.length;
      const rps = requests / ((performance.now() - started) / 1000);
      const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
      return { rps, p50, p99, requests, ok: requests, non2xx: 0, errors: 0 };
    },
    close: () => db.close(),
  };
}
