import type { Logger } from 'pino';
import type { IdempotencyStore } from './idempotency.store.js';

const PURGE_INTERVAL_MS = 60_000;

/**
 * Deletes expired stored responses every minute (`intervalMs`), a small batch at a time (IdempotencyStore.purgeExpired),
 * so the table never takes a long lock. The timer never keeps the process alive; answers a stop.
 */
export function startIdempotencyPurge(
  store: IdempotencyStore,
  logger: Logger,
  intervalMs = PURGE_INTERVAL_MS,
): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    running = store
      .purgeExpired()
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys purged');
      })
      .catch((err: unknown) => logger.warn({ err }, 'idempotency key purge failed; retrying later'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  timer = setTimeout(tick, 0).unref();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
