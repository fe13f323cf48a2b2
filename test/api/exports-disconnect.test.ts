import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildSuggestions, buildTenant, removeBusiness } from '../support/factories.js';

const ctx = useTestApp();

/** Rejects after `ms`: every wait in this file is bounded. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` every 10 ms, at most `ms` long. */
async function eventually(ms: number, what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: still false after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts GET `path` over a real socket, resolves with its status and first body chunk, then cuts it. */
function firstChunkThenHangUp(port: number, path: string, key: string) {
  return new Promise<{ status: number | undefined; chunk: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { 'X-API-Key': key } }, (res) => {
      res.once('data', (chunk: Buffer) => {
        req.destroy();
        resolve({ status: res.statusCode, chunk: chunk.toString() });
      });
    });
    // destroy() makes the request emit an abort error: expected once the chunk has arrived
    req.on('error', reject);
  });
}

/** Every pooled connection answers a query outside any transaction (none was left open by the export). */
async function connectionsAreClean(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: Math.max(pool.totalCount, 1) }, () => pool.connect()));
  try {
    for (const client of clients) {
      const { rows } = await client.query<{ fresh: boolean }>('SELECT now() = statement_timestamp() AS fresh');
      expect(rows[0]!.fresh).toBe(true);
    }
  } finally {
    for (const client of clients) client.release();
  }
}

/** Each test first writes about 5 MB (10,050 rows): up to 27 s measured on a loaded 2-core machine. */
describe('export disconnect', { timeout: 60_000 }, () => {
  it.each(['json', 'csv'])(
    'When the client hangs up during a %s export, then the export stops and its connection is released at once',
    async (format) => {
      const t = await buildTenant(ctx.db);
      // ~5 MB of content: more than socket buffers hold, so the export is mid-way when the client leaves
      onTestFinished(() => removeBusiness(ctx.db, t.business.id));
      await buildSuggestions(ctx.db, t.business.id, 10_050, { text: 'x'.repeat(500) });
      const server = ctx.app.listen(0, '127.0.0.1');
      try {
        await within(5_000, 'listen', once(server, 'listening'));
        const { port } = server.address() as AddressInfo;
        const first = await within(
          10_000,
          'first chunk',
          firstChunkThenHangUp(port, `/api/v1/export/suggestions?format=${format}`, t.read),
        );
        expect(first.status).toBe(200);
        expect(first.chunk).toMatch(format === 'json' ? /^\{"data":\[/ : /^id,content,status,/);

        const pool = ctx.db.pool;
        await eventually(5_000, 'connection back in the pool', () => pool.idleCount === pool.totalCount);
        expect(pool.waitingCount).toBe(0);
        await within(5_000, 'follow-up query', connectionsAreClean(pool));

        await eventually(5_000, 'stop logged', () => ctx.logs.some((line) => line.includes('export stopped')));
        const stopped = JSON.parse(ctx.logs.find((line) => line.includes('export stopped'))!) as { written: number };
        expect(stopped.written).toBeLessThan(10_000);
        ctx.logs.length = 0;
      } finally {
        server.closeAllConnections();
        await within(5_000, 'server close', new Promise((resolve) => server.close(resolve)));
      }
    },
  );
});
