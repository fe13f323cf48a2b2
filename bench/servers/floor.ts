/**
 * The floor: what the list costs with no framework at all. Raw node:http, the same pool, the same
 * repository SQL and presenter as the service (authentication lookup, page, total), nothing else:
 * no logging, no rate limiting, no security headers, no validation beyond what the SQL needs.
 * With FLOOR_CACHED=1 it is the cached floor: the authentication statement alone (key and the
 * business's change number, as the service's list cache needs), then the bytes kept for that
 * business, change number and URL, computed once per change like the service's cache does.
 * Without DATABASE_URL it runs on the embedded database in DATA_DIR, opened as the service opens
 * it: the raw node:http floor on PGlite (the ceiling of the embedded list target).
 * Env: DATABASE_URL or DATA_DIR, PORT (0 for any), FLOOR_CACHED; prints `{"port": N}` on stdout once
 * listening.
 */
import http from 'node:http';
import { once } from 'node:events';
import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { digestKey, isWellFormedKey } from '../../src/auth/key-format.js';
import { openDatabase } from '../../src/db/open.js';
import { pageEnvelope } from '../../src/http/params.js';
import { toSuggestionListItem } from '../../src/suggestions/suggestion.presenter.js';
import { listSuggestions } from '../../src/suggestions/suggestion.service.js';

// The service's own pool: same size, same prepared statements, same type parsers.
const db = await openDatabase(
  { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR ?? '' },
  () => undefined,
);
const { pool } = db;
const cached = process.env.FLOOR_CACHED === '1' ? new Map<string, string>() : undefined;

function reply(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (url.pathname === '/health') return reply(res, 200, '{"status":"ok"}');
  if (url.pathname !== '/api/v1/suggestions') return reply(res, 404, '{"statusCode":404}');
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string' || !isWellFormedKey(key)) return reply(res, 401, '{"statusCode":401}');
  const credential = await findKeyCredential(pool, digestKey(key));
  if (!credential || credential.revoked_at) return reply(res, 401, '{"statusCode":401}');
  const cacheKey = `${credential.business_id} ${credential.change_number} ${url.search}`;
  const kept = cached?.get(cacheKey);
  if (kept !== undefined) return reply(res, 200, kept);
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const page = Number(url.searchParams.get('page') ?? 1);
  const result = await listSuggestions(
    pool,
    credential.business_id,
    {},
    { sort: 'created_at', order: 'desc', limit, offset: (page - 1) * limit },
  );
  const body = JSON.stringify(pageEnvelope(result.rows.map(toSuggestionListItem), result.total, page, limit));
  cached?.set(cacheKey, body);
  reply(res, 200, body);
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
  void db.close();
});
