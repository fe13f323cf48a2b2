import http from 'node:http';
import type { Express } from 'express';

/** How long a connection may take over each part of an exchange, in milliseconds. */
export interface ServerTimeouts {
  /** From the connection (or the previous response) to the end of the request's headers. */
  headersTimeoutMs: number;
  /** From the start of a request to the end of its body: a slow upload is cut with a 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open for the client's next request. */
  keepAliveTimeoutMs: number;
}

/**
 * The HTTP server, with its timeouts set deliberately rather than left to Node's defaults (a request
 * body could take 300 s). Node checks the header and request timeouts every
 * `connectionsCheckingInterval` (30 s by default, so a 30 s timeout could fire after a minute): it is
 * set to a quarter of the shorter timeout, at most a second. Responses are not limited: an export
 * streams for as long as its client reads.
 */
export function createHttpServer(app: Express, timeouts: ServerTimeouts): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(
        1_000,
        Math.max(10, Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 4)),
      ),
    },
    app,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}
