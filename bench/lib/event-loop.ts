export interface EventLoopDelay {
  /** The longest the server's event loop was kept from running a ready callback (ms). */
  maxMs: number;
  p99Ms: number;
}

/** The server's event-loop delay figures from its metrics listener (GET /metrics, METRICS_PORT). */
async function scrape(metricsUrl: string): Promise<EventLoopDelay> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const seconds = (name: string) => {
    const value = Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    if (!Number.isFinite(value)) throw new Error(`${metricsUrl}/metrics has no ${name}`);
    return value;
  };
  return {
    maxMs: seconds('nodejs_eventloop_lag_max_seconds') * 1000,
    p99Ms: seconds('nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}

/**
 * How long a server's event loop stalled while `work` ran: prom-client samples it with
 * `monitorEventLoopDelay` (every 10 ms) and starts a new histogram at every scrape, so a scrape just
 * before `work` leaves exactly its interval in the one just after.
 */
export async function eventLoopDelayDuring<T>(
  metricsUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; delay: EventLoopDelay }> {
  await scrape(metricsUrl);
  const result = await work();
  return { result, delay: await scrape(metricsUrl) };
}
