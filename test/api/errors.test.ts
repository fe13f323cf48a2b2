import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

describe('error handling', () => {
  it('When the JSON is malformed, then it is a 400 in the error shape', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .set('Content-Type', 'application/json')
      .send('{"content": "x",');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/JSON/) });
  });

  it('When the body is not JSON, then it is a 415', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .set('Content-Type', 'text/plain')
      .send('content=hello');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });

  it('When the body is over 64 KiB, then it is a 413 and nothing is stored', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'x', customer_name: 'a'.repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('When the JSON body is not an object, then it is a 400', async () => {
    const t = await buildTenant(ctx.db);
    for (const body of ['"just a string"', '[1,2]', 'null']) {
      const res = await ctx
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
    }
  });

  it('When the route is unknown, then it is a 404 in the error shape', async () => {
    const res = await ctx.request().get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('When an authenticated client asks for an unknown /api/v1 route, then it is a 404', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().post('/api/v1/issues').set('X-API-Key', t.write).send({ title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.statusCode).toBe(404);
  });

  it('When something unexpected fails, then it is a 500 with a generic message, no stack, logged with the request id', async () => {
    const t = await buildTenant(ctx.db);
    const spy = vi.spyOn(ctx.db.pool, 'query').mockRejectedValueOnce(new Error('secret internal detail'));
    try {
      const res = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Internal server error',
        code: 'INTERNAL_ERROR',
        requestId: res.headers['x-request-id'],
      });
      expect(res.text).not.toContain('secret internal detail');
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
      const line = ctx.logs.find((l) => l.includes('secret internal detail'));
      expect(line).toBeDefined();
      expect(line).toContain(res.headers['x-request-id']);
    } finally {
      spy.mockRestore();
    }
  });

  it('When the database connection is refused, then it is a 503 with Retry-After', async () => {
    const t = await buildTenant(ctx.db);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const spy = vi.spyOn(ctx.db.pool, 'query').mockRejectedValueOnce(refused);
    try {
      const res = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    } finally {
      spy.mockRestore();
    }
  });

  it('When the client sends a sane X-Request-Id, then it is echoed; otherwise one is generated', async () => {
    const echoed = await ctx.request().get('/health').set('X-Request-Id', 'abc-123');
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const replaced = await ctx.request().get('/health').set('X-Request-Id', 'x'.repeat(200));
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await ctx.request().get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('When any response is sent, then it carries helmet headers and Cache-Control: no-store', async () => {
    const t = await buildTenant(ctx.db);
    for (const res of [
      await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read),
      await ctx.request().get('/api/v1/suggestions'),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeDefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
