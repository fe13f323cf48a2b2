import { describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/api-keys/api-key.service.js';
import { generateApiKey } from '../../src/auth/key-format.js';
import { useTestApp } from '../support/app.js';
import { buildApiKey, buildBusiness, buildTenant } from '../support/factories.js';

const ctx = useTestApp();

function expectUnauthorized(res: { status: number; body: unknown; headers: Record<string, string> }) {
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
}

describe('API key authentication on /api/v1', () => {
  it('When the key is sent as X-API-Key, then the request is served', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(res.status).toBe(200);
  });

  it('When the key is sent as Authorization: Bearer, then the request is served', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions').set('Authorization', `Bearer ${t.read}`);
    expect(res.status).toBe(200);
  });

  it('When both headers carry the same key, then the request is served', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .get('/api/v1/suggestions')
      .set('Authorization', `Bearer ${t.read}`)
      .set('X-API-Key', t.read);
    expect(res.status).toBe(200);
  });

  it('When no key is sent, then it is a 401 with WWW-Authenticate', async () => {
    expectUnauthorized(await ctx.request().get('/api/v1/suggestions'));
  });

  it.each([
    ['malformed', 'not-a-key'],
    ['wrong prefix', 'abc_' + 'A'.repeat(38)],
    ['bad checksum', 'fbk_' + 'A'.repeat(38)],
    ['empty bearer', ''],
  ])('When the key is %s, then it is a 401', async (_label, key) => {
    expectUnauthorized(await ctx.request().get('/api/v1/suggestions').set('Authorization', `Bearer ${key}`));
  });

  it('When the key is well formed but was never issued, then it is a 401', async () => {
    const neverIssued = generateApiKey().key;
    expectUnauthorized(await ctx.request().get('/api/v1/suggestions').set('X-API-Key', neverIssued));
  });

  it('When the Authorization header uses another scheme, then it is a 401', async () => {
    const t = await buildTenant(ctx.db);
    expectUnauthorized(await ctx.request().get('/api/v1/suggestions').set('Authorization', `Basic ${t.read}`));
  });

  it('When the two headers carry different keys, then it is a 401', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .get('/api/v1/suggestions')
      .set('Authorization', `Bearer ${t.read}`)
      .set('X-API-Key', t.write);
    expectUnauthorized(res);
  });

  it('When the key is only in the query string, then it is ignored (401)', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions').query({ api_key: t.read, key: t.read });
    expectUnauthorized(res);
  });

  it('When a key is revoked, then its very next request is a 401', async () => {
    const t = await buildTenant(ctx.db);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
    await revokeKey(ctx.db.pool, t.business.id, t.readKey.id, null);
    expectUnauthorized(await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read));
  });

  it.each(['free', 'starter'] as const)(
    'When the business is on the %s plan, then it is a 403 naming the plan',
    async (plan) => {
      const { business } = await buildBusiness(ctx.db, { plan });
      const { key } = await buildApiKey(ctx.db, business.id);
      const res = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/Business plan or higher/);
    },
  );

  it('When the business is on the enterprise plan, then the key works', async () => {
    const { business } = await buildBusiness(ctx.db, { plan: 'enterprise' });
    const { key } = await buildApiKey(ctx.db, business.id);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key)).status).toBe(200);
  });

  it('When a read key writes, then it is a 403', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.read).send({ content: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });

  it('When a key is used, then last_used_at is recorded', async () => {
    const t = await buildTenant(ctx.db);
    await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    await expect
      .poll(async () => {
        const { rows } = await ctx.db.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [t.readKey.id]);
        return rows[0].last_used_at;
      })
      .not.toBeNull();
  });

  it('When requests carry keys, then the raw keys never appear in the logs', async () => {
    const t = await buildTenant(ctx.db);
    ctx.logs.length = 0;
    await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    await ctx.request().get('/api/v1/suggestions').set('Authorization', `Bearer ${t.write}`);
    const logs = ctx.logs.join('');
    expect(logs.match(/"url":"\/api\/v1\/suggestions"/g)).toHaveLength(2);
    expect(logs).not.toContain(t.read);
    expect(logs).not.toContain(t.write);
    expect(logs).not.toContain(t.read.slice(4));
  });
});
