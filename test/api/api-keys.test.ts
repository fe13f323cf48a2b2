import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';
import { useOtherApps, useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}/api-keys`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('/businesses/:id/api-keys (Settings > Integrations)', () => {
  it('When an admin creates a key, then the full key is shown once and works on /api/v1 with its scope', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().post(base(t)).set(as(t.admin.token)).send({ name: 'Zapier', scope: 'write' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'name',
      'prefix',
      'scope',
      'created_by',
      'created_at',
      'last_used_at',
      'revoked_at',
      'key',
    ]);
    expect(res.body).toMatchObject({ name: 'Zapier', scope: 'write', created_by: t.admin.id, revoked_at: null });
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);
    const created = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', res.body.key)
      .send({ content: 'via new key' });
    expect(created.status).toBe(201);
    const list = await ctx.request().get(base(t)).set(as(t.ownerToken));
    expect(list.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.data.every((k: object) => !('key' in k) && !('digest' in k))).toBe(true);
  });

  it('When the scope is omitted, then the key is read-only', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().post(base(t)).set(as(t.ownerToken)).send({ name: 'Reader' });
    expect(res.body.scope).toBe('read');
    expect(
      (await ctx.request().post('/api/v1/suggestions').set('X-API-Key', res.body.key).send({ content: 'x' })).status,
    ).toBe(403);
  });

  it('When a key is revoked, then the response shows it and its very next request is a 401, permanently', async () => {
    const t = await buildTeam(ctx.db);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
    const res = await ctx
      .request()
      .delete(`${base(t)}/${t.readKey.id}`)
      .set(as(t.ownerToken));
    expect(res.status).toBe(200);
    expect(res.body.revoked_at).toEqual(expect.any(String));
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(401);
    const again = await ctx
      .request()
      .delete(`${base(t)}/${t.readKey.id}`)
      .set(as(t.ownerToken));
    expect(again.body.revoked_at).toBe(res.body.revoked_at);
  });

  it('When an API key tries to list, create or revoke keys, then it is a 403 even with write scope', async () => {
    const t = await buildTeam(ctx.db);
    expect((await ctx.request().get(base(t)).set(as(t.write))).status).toBe(403);
    expect((await ctx.request().post(base(t)).set(as(t.write)).send({ name: 'x' })).status).toBe(403);
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${t.readKey.id}`)
          .set(as(t.write))
      ).status,
    ).toBe(403);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read)).status).toBe(200);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', scope: 'admin' }, 'scope'],
    [{ name: 'x', business_id: '0190c7f0-0000-7000-8000-000000000000' }, 'business_id'],
  ])('When the body is %j, then it is a 400 naming the field', async (body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().post(base(t)).set(as(t.ownerToken)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("When another business's key id is revoked through this business, then it is a 404 and the key still works", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${other.readKey.id}`)
          .set(as(t.ownerToken))
      ).status,
    ).toBe(404);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', other.read)).status).toBe(200);
  });

  it('When a key has been used, then last_used_at is shown to the minute, as documented', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query(
      "UPDATE api_keys SET last_used_at = '2026-01-31T09:30:42.123Z' WHERE business_id = $1 AND id = $2",
      [t.business.id, t.readKey.id],
    );
    const list = await ctx.request().get(base(t)).set(as(t.ownerToken));
    const read = list.body.data.find((k: { id: string }) => k.id === t.readKey.id);
    expect(read.last_used_at).toBe('2026-01-31T09:30:00.000Z');
  });

  it('When one key has been used and another has not, then the list shows each as the one pattern the document gives', async () => {
    const t = await buildTeam(ctx.db);
    // Used now, through the API; the write key stays unused.
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.readKey.key)).status).toBe(200);
    const list = await ctx.request().get(base(t)).set(as(t.ownerToken));
    const shown = (id: string) => list.body.data.find((k: { id: string }) => k.id === id).last_used_at as unknown;

    const field = apiDocument().components as { schemas: Record<string, { properties: Record<string, unknown> }> };
    const { anyOf } = field.schemas.ApiKey!.properties.last_used_at as { anyOf: Record<string, unknown>[] };
    const text = anyOf.find((branch) => branch.type === 'string')!;
    // Some validators (Prism) fold an allOf of patterns into one, wrongly: one pattern says it plainly.
    expect(Object.keys(text).sort()).toEqual(['format', 'pattern', 'type']);
    expect(anyOf.find((branch) => branch.type === 'null')).toBeDefined();
    expect(shown(t.readKey.id)).toMatch(new RegExp(text.pattern as string));
    expect(Date.now() - Date.parse(shown(t.readKey.id) as string)).toBeLessThan(61_000);
    expect(shown(t.writeKey.id)).toBeNull();
  });
});

describe('API_KEYS_MAX_PER_BUSINESS', () => {
  const otherApp = useOtherApps(ctx);
  /** Every key of the business but those given, revoked: so the test knows how many are active. */
  const revokeAllBut = async (t: Team, keep: string[] = []) => {
    const list = await ctx
      .request()
      .get(`${base(t)}?limit=100`)
      .set(as(t.ownerToken));
    for (const key of list.body.data as { id: string; revoked_at: string | null }[]) {
      if (!keep.includes(key.id) && key.revoked_at === null) {
        expect(
          (
            await ctx
              .request()
              .delete(`${base(t)}/${key.id}`)
              .set(as(t.ownerToken))
          ).status,
        ).toBe(200);
      }
    }
  };

  it('When a business has as many active keys as allowed, then another is a 409 naming the limit, until one is revoked', async () => {
    const t = await buildTeam(ctx.db);
    await revokeAllBut(t);
    const app = otherApp({ config: { API_KEYS_MAX_PER_BUSINESS: 2 }, limit: 1_000 });
    const create = (name: string) => app.request().post(base(t)).set(as(t.ownerToken)).send({ name, scope: 'read' });
    const first = await create('one');
    expect(first.status).toBe(201);
    expect((await create('two')).status).toBe(201);
    const third = await create('three');
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ statusCode: 409, code: 'API_KEY_LIMIT_REACHED' });
    expect(third.body.message).toMatch(/2 active API keys.*API_KEYS_MAX_PER_BUSINESS/);
    // revoked keys do not count
    expect(
      (
        await app
          .request()
          .delete(`${base(t)}/${first.body.id}`)
          .set(as(t.ownerToken))
      ).status,
    ).toBe(200);
    expect((await create('three again')).status).toBe(201);
  });

  it('When keys are created at the same time at the limit, then exactly the places left are taken', async () => {
    const t = await buildTeam(ctx.db);
    await revokeAllBut(t);
    const app = otherApp({ config: { API_KEYS_MAX_PER_BUSINESS: 3 }, limit: 1_000 });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app
          .request()
          .post(base(t))
          .set(as(t.ownerToken))
          .send({ name: `racer ${i}`, scope: 'read' }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(5);
    const list = await ctx
      .request()
      .get(`${base(t)}?limit=100`)
      .set(as(t.ownerToken));
    expect((list.body.data as { revoked_at: string | null }[]).filter((k) => k.revoked_at === null)).toHaveLength(3);
  });
});
