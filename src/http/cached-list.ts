import type { ListCache } from '../cache/list-cache.js';
import { media, ok, type Reply } from './reply.js';

/**
 * Answers a list request from the cache when the business has not changed since the response was
 * made, else with `build()`'s result, which is then kept. The change number is the one the API key
 * lookup read, before the list: the list's snapshot is then at least as new as the number it is
 * filed under, and every later write moves the number on, so no request is ever answered with data
 * older than its own start. A `build()` that reads on a replica (a search) stays exact: the replica
 * is used only once it has replayed past every commit that number counts (src/db/replicas.ts, keyed by
 * this very number), so its body is never older than the number it is filed under. `key` must hold everything the response depends on besides the
 * business's rows (the family, the resource, the query).
 */
export async function cachedList(
  cache: ListCache,
  business: { businessId: string; changeNumber: number },
  key: string,
  build: () => Promise<unknown>,
): Promise<Reply> {
  const { businessId, changeNumber } = business;
  if (cache.maxBytes === 0) return ok(await build());
  const fullKey = `${businessId} ${key}`;
  let body = cache.get(fullKey, changeNumber);
  if (!body) {
    body = Buffer.from(JSON.stringify(await build()));
    cache.set(fullKey, changeNumber, body);
  }
  return media('application/json; charset=utf-8', body);
}
