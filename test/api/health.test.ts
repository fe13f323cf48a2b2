import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';

const ctx = useTestApp();

describe('GET /health', () => {
  it('When the database answers, then it is 200 {"status":"ok"} without a credential', async () => {
    const res = await ctx.request().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
