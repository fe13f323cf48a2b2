import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

/**
 * A client's mistake is never a 500: a body that does not decode, a path that does not decode, an
 * upload cut short. Every error that carries an HTTP status below 500 becomes that status in the
 * error shape (src/http/error-handler.ts).
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

/** One JSON route per family, and the two without a credential. */
const jsonRoutes = (t: Team) => [
  { path: '/auth/login', headers: {} },
  { path: '/invites/accept', headers: {} },
  { path: '/api/v1/suggestions', headers: { 'X-API-Key': t.write } },
  { path: `/businesses/${t.business.id}/qr-codes`, headers: { Authorization: `Bearer ${t.ownerToken}` } },
];

describe('request bodies that do not decode', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'When a body claims Content-Encoding: %s but does not decode, then every JSON route answers 400',
    async (encoding) => {
      const t = await buildTeam(ctx.db);
      for (const { path, headers } of jsonRoutes(t)) {
        const res = await ctx
          .request()
          .post(path)
          .set(headers)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send('x');
        expect(res.status, `${path}: ${res.text}`).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'MALFORMED_BODY' });
      }
    },
  );

  it('When the Content-Encoding is one the service does not support, then it is a 415', async () => {
    const t = await buildTeam(ctx.db);
    for (const { path, headers } of jsonRoutes(t)) {
      const res = await ctx
        .request()
        .post(path)
        .set(headers)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}');
      expect(res.status, `${path}: ${res.text}`).toBe(415);
      expect(res.body).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('When a gzip body decodes, then it is read as usual', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      // As bytes: superagent would otherwise serialise a Buffer as JSON.
      .serialize((bytes: Buffer) => bytes as unknown as string)
      .send(gzipSync(JSON.stringify({ content: 'Compressed oat milk request' })));
    expect(res.status, res.text).toBe(201);
    expect(res.body.content).toBe('Compressed oat milk request');
  });

  it('When a JSON body is not UTF-8 or names another charset, then it is a 400 or a 415, never stored', async () => {
    const t = await buildTeam(ctx.db);
    const latin1 = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"content":"caf\u00e9"}');
    expect(latin1.status).toBe(415);
  });
});

describe('paths that do not decode', () => {
  it('When a path has bad percent-encoding, then it is a 400, before or after authentication', async () => {
    const t = await buildTeam(ctx.db);
    const cases = [
      { path: '/docs/%ff', headers: {} },
      { path: '/businesses/%ZZ/suggestions', headers: { Authorization: `Bearer ${t.ownerToken}` } },
      {
        path: `/businesses/${t.business.id}/suggestions/%E0%A4%A`,
        headers: { Authorization: `Bearer ${t.ownerToken}` },
      },
      { path: '/api/v1/suggestions/%E0%A4%A', headers: { 'X-API-Key': t.read } },
      { path: '/api/v1/suggestions/%ED%A0%80', headers: { 'X-API-Key': t.read } },
    ];
    for (const { path, headers } of cases) {
      const res = await ctx.request().get(path).set(headers);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'MALFORMED_PATH' });
    }
  });
});

describe('bodies nested too deep', () => {
  const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it.each([
    ['arrays 6,000 deep (12 KB)', arrays(6_000)],
    ['objects 10,000 deep', objects(10_000)],
    ['arrays one level past the limit', arrays(33)],
    ['brackets past the limit behind a string holding brackets and quotes', `{"x":"]]]\\"}}","y":${arrays(33)}}`],
  ])('When a body nests %s, then every JSON route answers 400 before any credential is read', async (_label, body) => {
    const t = await buildTeam(ctx.db);
    const before = ctx.logs.length;
    for (const { path, headers } of jsonRoutes(t)) {
      const res = await ctx.request().post(path).set(headers).set('Content-Type', 'application/json').send(body);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'BODY_TOO_DEEP' });
      expect(res.body.message).toMatch(/32 levels/);
    }
    // no error-level line (pino level 50): a client's body is never a server failure
    expect(ctx.logs.slice(before).join('')).not.toMatch(/"level":50/);
  });

  it('When a body nests exactly to the limit, then it is parsed and validated as usual', async () => {
    const t = await buildTeam(ctx.db);
    // 32 levels: the top object, then 31 arrays in a field the schema does not take
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send(`{"content":"Deep but fine","extra":${arrays(31)}}`)
      .set('Content-Type', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toMatch(/extra/);
  });
});

describe('uploads cut short', () => {
  it('When a client aborts an upload mid-body, then it is logged as a client abort, not as a failure', async () => {
    const t = await buildTeam(ctx.db);
    const server = ctx.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'POST /api/v1/suggestions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `X-API-Key: ${t.write}\r\nX-Request-Id: abort-mid-body\r\nContent-Length: 1000\r\n\r\n{"content":"par`,
      );
      await sleep(100);
      socket.destroy();
      const deadline = Date.now() + 5_000;
      const lines = () => ctx.logs.filter((line) => line.includes('abort-mid-body'));
      while (!lines().some((line) => /client aborted/.test(line)) && Date.now() < deadline) await sleep(20);
      expect(lines().join('')).toMatch(/client aborted/);
      expect(lines().join('')).not.toMatch(/unhandled error|"statusCode":500|"level":50/);
    } finally {
      server.close();
    }
  });

  it('When clients close the connection right after sending a whole JSON body, then nothing is logged as a failure', async () => {
    const t = await buildTeam(ctx.db);
    const server = ctx.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const ids = ['closed-after-body-1', 'closed-after-body-2', 'closed-after-body-3'];
      for (const id of ids) {
        const socket = net.connect(port, '127.0.0.1');
        await once(socket, 'connect');
        const body = JSON.stringify({ content: `Sent, then gone (${id})` });
        socket.write(
          'POST /api/v1/suggestions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            `X-API-Key: ${t.write}\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        socket.destroy();
      }
      const lines = () => ctx.logs.filter((line) => ids.some((id) => line.includes(id)));
      // each request is over once its line is logged (the answer, or the abort); bounded wait
      const deadline = Date.now() + 10_000;
      const done = () => ids.every((id) => lines().some((line) => line.includes(id) && /"msg":"request/.test(line)));
      while (!done() && Date.now() < deadline) await sleep(20);
      await sleep(200);
      expect(done()).toBe(true);
      expect(lines().join('')).not.toMatch(/TypeError|"statusCode":500|"level":50/);
    } finally {
      server.close();
    }
  });
});
