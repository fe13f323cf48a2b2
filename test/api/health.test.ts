import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/logger.js';
import supertest from 'supertest';
import { useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';

const ctx = useTestApp();

describe('GET /health', () => {
  it('When the database answers, then it is 200 {"status":"ok"} without a credential', async () => {
    const res = await ctx.request().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('When the database does not answer, then it is a 503 in the error shape', async () => {
    const spy = vi.spyOn(ctx.db, 'ping').mockResolvedValueOnce(false);
    try {
      const res = await ctx.request().get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    } finally {
      spy.mockRestore();
    }
  });

  it('When migrations have not run yet, then health and the API answer 503', async () => {
    const app = createApp({ db: ctx.db, logger: createLogger('silent'), isReady: () => false });
    expect((await checked(supertest.agent(app)).get('/health')).status).toBe(503);
    expect((await checked(supertest.agent(app)).get('/api/v1/suggestions')).status).toBe(503);
  });
});
