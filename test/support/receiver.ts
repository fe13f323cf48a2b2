import { once } from 'node:events';
import http from 'node:http';
import { afterAll } from 'vitest';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** What the receiver answers: a status and headers, or `hang` to never answer. */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers each request; by default 204. */
  reply: (request: Received) => Reply;
  /** Resolves at the n-th request received. */
  nth(n: number): Promise<Received>;
}

/** Starts webhook receivers on loopback that keep every request; all are closed after the file. */
export function useReceivers(): () => Promise<Receiver> {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });
  return async () => {
    const { receiver, close } = await startReceiver();
    closers.push(close);
    return receiver;
  };
}

async function startReceiver(): Promise<{ receiver: Receiver; close: () => Promise<unknown> }> {
  const waiting: { n: number; resolve: (r: Received) => void }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    reply: () => ({ status: 204 }),
    nth(n) {
      const got = receiver.received[n - 1];
      return got ? Promise.resolve(got) : new Promise((resolve) => waiting.push({ n, resolve }));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(request);
      for (const wait of waiting.filter((w) => w.n === receiver.received.length)) wait.resolve(request);
      const reply = receiver.reply(request);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status, reply.headers).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  const close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { receiver, close };
}
