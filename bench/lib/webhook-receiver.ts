import { once } from 'node:events';
import http from 'node:http';

/**
 * A webhook receiver on loopback for the bench: answers 204 at once and keeps, per delivery, how
 * long after its event was written it arrived (the event's `created_at`, set in the writing
 * transaction, against the receipt; one machine, one clock).
 */
export async function startWebhookReceiver() {
  const lagsMs: number[] = [];
  const ids = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const received = Date.now();
      const event = JSON.parse(body) as { timestamp: string };
      ids.add(String(req.headers['webhook-id']));
      lagsMs.push(received - Date.parse(event.timestamp));
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    lagsMs,
    /** Distinct deliveries received (a retry of one counts once). */
    received: () => ids.size,
    /** Forgets what was received so far. */
    reset: () => {
      lagsMs.length = 0;
      ids.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A receiver that never answers: each delivery holds its connection until the sender's timeout. It
 * counts what reached it.
 */
export async function startHangingReceiver() {
  let received = 0;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    req.resume();
    received++;
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
