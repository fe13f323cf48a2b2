/**
 * The write floor: what a create costs with no framework at all. Raw node:http and the service's
 * pool running the statements a create needs and nothing else: the key lookup (a revoked key is a 401
 * at once, so it is read on every request), then the create with its guarantees, the suggestion with
 * its sentiment, its activity row, its event and the event's webhook deliveries, committed together.
 * Those are the service's own statement and presenter (../lib/writes.ts). No logging, rate
 * limiting, security headers or validation beyond JSON.parse. With an `Idempotency-Key`, the create
 * runs under the service's own IdempotencyStore (its transaction, the key's lock and lookup, the
 * stored response): the floor of a keyed create.
 * Env: DATABASE_URL, PORT (0 for any); prints `{"port": N}` once listening.
 */
import http from 'node:http';
import { once } from 'node:events';
import { digestKey, isWellFormedKey } from '../../src/auth/key-format.js';
import { openPostgres } from '../../src/db/postgres.js';
import { parseIdempotencyKey } from '../../src/idempotency/idempotency.key.js';
import { IdempotencyStore, type StoredResponse } from '../../src/idempotency/idempotency.store.js';
import { createSuggestion, findKeyPrincipal, type CreateInput } from '../lib/writes.js';

// The service's own pool: same size, same prepared statements, same type parsers.
const { pool } = openPostgres(process.env.DATABASE_URL!, () => undefined);
const keys = new IdempotencyStore(pool, { ttlHours: 24, now: () => new Date() });

function reply(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += (chunk as Buffer).toString();
  return text;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.url === '/health') return reply(res, 200, '{"status":"ok"}');
  if (req.method !== 'POST' || req.url !== '/api/v1/suggestions') return reply(res, 404, '{"statusCode":404}');
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey !== 'string' || !isWellFormedKey(apiKey)) return reply(res, 401, '{"statusCode":401}');
  const principal = await findKeyPrincipal(pool, digestKey(apiKey));
  if (!principal) return reply(res, 401, '{"statusCode":401}');
  const input = JSON.parse(await readBody(req)) as CreateInput;
  const key = parseIdempotencyKey(req.headers['idempotency-key'] as string | undefined);
  if (key === undefined) return send(res, await createSuggestion(pool, principal, input));
  const begun = await keys.begin({
    credential: `key:${principal.keyId}`,
    method: 'POST',
    path: req.url,
    url: req.url,
    body: input,
    key,
  });
  if ('replay' in begun) return send(res, begun.replay);
  const { claim } = begun;
  try {
    const { result } = await claim.run(() => createSuggestion(pool, principal, input));
    const { replay } = await claim.commit(result);
    send(res, replay ?? result);
  } catch (err) {
    await claim.rollBack();
    throw err;
  }
}

function send(res: http.ServerResponse, response: StoredResponse) {
  reply(res, response.status, response.body ?? '', response.location ? { Location: response.location } : {});
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    console.error(err);
    reply(res, 500, '{"statusCode":500}');
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
