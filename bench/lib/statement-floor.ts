import { performance } from 'node:perf_hooks';
import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { digestKey } from '../../src/auth/key-format.js';
import type { Queryable } from '../../src/db/database.js';
import { findSuggestionPage } from '../../src/suggestions/suggestion.repository.js';
import { toPrefixQuery } from '../../src/shared/search.js';
import type { LoadResult } from './load.js';
import { percentile } from './stats.js';

/**
 * `connections` callers each running `work` in a loop for `seconds`, in this process, with no HTTP:
 * the database's own throughput and latency for that work at the load the HTTP runs put on it.
 */
export async function statementFloor(
  connections: number,
  seconds: number,
  work: () => Promise<unknown>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const caller = async () => {
    while (performance.now() < until) {
      const at = performance.now();
      await work();
      latencies.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  const requests = latencies.length;
  return {
    rps: requests / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    ok: requests,
    non2xx: 0,
    errors: 0,
  };
}

/**
 * The statements of one `/api/v1/suggestions?limit=50` request, with `q` when given (the key lookup,
 * then the page with its exact total), through `db` as the service runs them: a list's floor.
 */
export function listStatements(db: Queryable, key: string, text?: string) {
  const digest = digestKey(key);
  const filter = text === undefined ? {} : { q: toPrefixQuery(text)! };
  return async () => {
    const credential = await findKeyCredential(db, digest);
    if (!credential) throw new Error('the list floor found no key');
    return findSuggestionPage(db, credential.business_id, filter, {
      sort: 'created_at',
      order: 'desc',
      limit: 50,
      offset: 0,
    });
  };
}
