/**
 * The ceiling: a bare Express app answering GET /api/v1/suggestions with a fixed body (the bytes of
 * a real list response, read from BODY_FILE), with nothing else on the way. The service cannot beat
 * this: the ratio says how much of the framework's own speed it keeps while doing the real work.
 * Env: BODY_FILE, PORT (0 for any); prints `{"port": N}` on stdout once listening.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import express from 'express';

const body = readFileSync(process.env.BODY_FILE!, 'utf8');
const app = express();
app.get('/api/v1/suggestions', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
process.on('SIGTERM', () => server.close());
