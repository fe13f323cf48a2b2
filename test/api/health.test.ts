import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/config/logger.js';
import supertest from 'supertest';
import { capturingLogger, useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

describe('GET /health', () => {
  it('When the database answers, then it is 200 {"status":"ok"} without a credential', async () => {
    const res = await ctx.request().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('When the database does not answer, then it is a 503 in the error shape, with Retry-After', async () => {
    const spy = vi.spyOn(ctx.db, 'ping').mockResolvedValueOnce(false);
    try {
      const res = await ctx.request().get('/health');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    } finally {
      spy.mockRestore();
    }
  });

  it('When migrations have not run yet, then health, the API and sign-in answer 503 with Retry-After', async () => {
    const app = createApp({ db: ctx.db, logger: createLogger('silent'), isReady: () => false });
    const agent = checked(supertest.agent(app));
    for (const res of [
      await agent.get('/health'),
      await agent.get('/api/v1/suggestions'),
      await agent.get(`/businesses/${randomUUID()}/issues`),
      await agent.post('/auth/login').send({ email: 'a@example.com', password: 'secret' }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    }
  });

  it('When health is polled while the service starts, then its 503s are logged as warnings, not errors', async () => {
    const { logger, logs } = capturingLogger();
    const app = createApp({ db: ctx.db, logger, isReady: () => false });
    for (let i = 0; i < 3; i++) expect((await supertest(app).get('/health')).status).toBe(503);
    const lines = logs.map((line) => JSON.parse(line) as { level: number; msg: string; res?: { statusCode: number } });
    const requests = lines.filter((line) => line.res?.statusCode === 503);
    expect(requests).toHaveLength(3);
    expect(requests.map((line) => line.level)).toEqual([40, 40, 40]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('When the database is unreachable, then health, the API and sign-in answer 503 with Retry-After', async () => {
    const t = await buildTenant(ctx.db);
    const ping = vi.spyOn(ctx.db, 'ping').mockResolvedValue(false);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    try {
      expect((await ctx.request().get('/health')).headers['retry-after']).toBe('1');
      const query = vi.spyOn(ctx.db.pool, 'query').mockRejectedValue(refused);
      try {
        for (const res of [
          await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read),
          await ctx.request().post('/auth/login').send({ email: 'a@example.com', password: 'secret' }),
        ]) {
          expect(res.status).toBe(503);
          expect(res.headers['retry-after']).toBe('1');
        }
      } finally {
        query.mockRestore();
      }
    } finally {
      ping.mockRestore();
    }
  });
});
