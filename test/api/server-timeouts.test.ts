import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type ServerTimeouts } from '../../src/http/server.js';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

/**
 * A slow client cannot hold a connection for Node's default 300 s: the server's header, request and
 * keep-alive timeouts are set (src/http/server.ts, from HTTP_*_TIMEOUT_MS), and enforced promptly.
 */
const ctx = useTestApp();
const servers: ReturnType<typeof createHttpServer>[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening(timeouts: ServerTimeouts): Promise<number> {
  const server = createHttpServer(ctx.app, timeouts);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Connects, writes `text`, and resolves with what the server sent and how long until it closed. */
async function exchange(port: number, text: string): Promise<{ reply: string; closedAfterMs: number }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const started = performance.now();
  socket.write(text);
  let reply = '';
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
  await once(socket, 'close');
  return { reply, closedAfterMs: performance.now() - started };
}

describe('server timeouts', () => {
  it('When a body arrives slower than the request timeout allows, then the server answers 408 and closes', async () => {
    const t = await buildTenant(ctx.db);
    const port = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5_000 });
    const { reply, closedAfterMs } = await exchange(
      port,
      'POST /api/v1/suggestions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `X-API-Key: ${t.write}\r\nContent-Length: 100\r\n\r\n{"content":"slo`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it('When headers never finish, then the connection is cut after the headers timeout', async () => {
    const port = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    const { reply, closedAfterMs } = await exchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it('When a keep-alive connection stays idle, then it is closed after the keep-alive timeout', async () => {
    const port = await listening({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 300 });
    const { reply, closedAfterMs } = await exchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(closedAfterMs).toBeLessThan(3_000);
  });
});
