import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildLocation, buildSuggestion, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}/locations`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
/** GET or DELETE of a path below the business, as its owner. */
const ownerCall = (method: 'get' | 'delete', t: Team, path: string) =>
  ctx.request()[method](`/businesses/${t.business.id}${path}`).set(as(t.ownerToken));
/** A QR code of the business at the location. */
const qrCodeAt = (t: Team, locationId: string, label: string) =>
  ctx
    .request()
    .post(`/businesses/${t.business.id}/qr-codes`)
    .set(as(t.ownerToken))
    .send({ label, location_id: locationId });

async function create(t: Team, name: string, token = t.ownerToken) {
  return ctx.request().post(base(t)).set(as(token)).send({ name });
}

async function activityTypes(t: Team) {
  const { rows } = await ctx.db.pool.query<{ type: string; data: Record<string, unknown> }>(
    `SELECT type, data FROM activity WHERE business_id = $1 AND entity_type = 'location' ORDER BY id`,
    [t.business.id],
  );
  return rows;
}

describe('/businesses/:id/locations', () => {
  it('When a location is created, read, listed and renamed, then each answer has exactly the documented fields', async () => {
    const t = await buildTeam(ctx.db);
    const created = await create(t, '  Terrace  ');
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id', 'name', 'created_at', 'updated_at']);
    expect(created.body.name).toBe('Terrace');
    expect(created.headers.location).toBe(`${base(t)}/${created.body.id}`);

    const read = await ctx
      .request()
      .get(`${base(t)}/${created.body.id}`)
      .set(as(t.member.token));
    expect(read.body).toEqual(created.body);

    const renamed = await ctx
      .request()
      .patch(`${base(t)}/${created.body.id}`)
      .set(as(t.write))
      .send({ name: 'Roof terrace' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      id: created.body.id,
      name: 'Roof terrace',
      created_at: created.body.created_at,
    });

    const list = await ctx.request().get(base(t)).set(as(t.read));
    expect(list.body).toEqual({ data: [renamed.body], total: 1, limit: 50, offset: 0 });
    expect(await activityTypes(t)).toEqual([
      { type: 'location.created', data: { name: 'Terrace' } },
      { type: 'location.updated', data: { changes: { name: { from: 'Terrace', to: 'Roof terrace' } } } },
    ]);
  });

  it('When locations are listed by name, then the order ignores case and pages are exact', async () => {
    const t = await buildTeam(ctx.db);
    for (const name of ['bar', 'Apron', 'cellar', 'Deck']) expect((await create(t, name)).status).toBe(201);
    const page = await ctx
      .request()
      .get(`${base(t)}?sort=name&order=asc&limit=2&offset=1`)
      .set(as(t.ownerToken));
    expect(page.body.total).toBe(4);
    expect(page.body.data.map((l: { name: string }) => l.name)).toEqual(['bar', 'cellar']);
  });

  it('When a name is taken in the business, whatever its case, then creating or renaming to it is a 409; another business may use it', async () => {
    const t = await buildTeam(ctx.db);
    const first = await create(t, 'Patio');
    const second = await create(t, 'Garden');
    const duplicate = await create(t, 'PATIO');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toContain('PATIO');
    const rename = await ctx
      .request()
      .patch(`${base(t)}/${second.body.id}`)
      .set(as(t.ownerToken))
      .send({ name: 'patio' });
    expect(rename.status).toBe(409);
    // renaming to its own name in another case is allowed
    const recase = await ctx
      .request()
      .patch(`${base(t)}/${first.body.id}`)
      .set(as(t.ownerToken))
      .send({ name: 'PATIO' });
    expect(recase.status).toBe(200);
    const other = await buildTeam(ctx.db);
    expect((await create(other, 'Patio')).status).toBe(201);
  });

  it('When a location is named by a QR code, a suggestion and an issue, then deleting it is a 409 that counts them and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    const qr = await qrCodeAt(t, location.id, 'Table 1');
    await buildSuggestion(ctx.db, t.business.id, { locationId: location.id });
    await buildSuggestion(ctx.db, t.business.id, { locationId: location.id });
    await buildIssue(ctx.db, t.business.id, { locationId: location.id });
    const res = await ownerCall('delete', t, `/locations/${location.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('1 QR code, 2 suggestions, 1 issue');
    expect((await ownerCall('get', t, `/locations/${location.id}`)).status).toBe(200);
    const still = await ownerCall('get', t, `/qr-codes/${qr.body.id}`);
    expect(still.body.location_id).toBe(location.id);
    const forceFalse = await ownerCall('delete', t, `/locations/${location.id}?force=false`);
    expect(forceFalse.status).toBe(409);
  });

  it('When deleted with force=true, then what named it is detached (and otherwise unchanged) and the location is gone', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    const qr = await qrCodeAt(t, location.id, 'Table 2');
    const suggestion = await buildSuggestion(ctx.db, t.business.id, {
      locationId: location.id,
      content: 'Shade please',
    });
    const issue = await buildIssue(ctx.db, t.business.id, { locationId: location.id });
    const res = await ctx
      .request()
      .delete(`${base(t)}/${location.id}?force=true`)
      .set(as(t.write));
    expect(res.status, res.text).toBe(204);
    expect((await ownerCall('get', t, `/locations/${location.id}`)).status).toBe(404);
    const qrAfter = await ownerCall('get', t, `/qr-codes/${qr.body.id}`);
    expect(qrAfter.body).toMatchObject({ location_id: null, label: 'Table 2', active: true });
    const suggestionAfter = await ownerCall('get', t, `/suggestions/${suggestion.id}`);
    expect(suggestionAfter.body).toMatchObject({ location_id: null, content: 'Shade please', status: 'pending' });
    const { rows } = await ctx.db.pool.query('SELECT location_id, status FROM issues WHERE id = $1', [issue.id]);
    expect(rows).toEqual([{ location_id: null, status: 'open' }]);
    expect((await activityTypes(t)).at(-1)).toEqual({
      type: 'location.deleted',
      data: { name: location.name, detached: { qr_codes: 1, suggestions: 1, issues: 1 } },
    });
  });

  it('When an unused location is deleted, then it is a 204 and it is gone; a second delete is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${location.id}`)
          .set(as(t.admin.token))
      ).status,
    ).toBe(204);
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${location.id}`)
          .set(as(t.admin.token))
      ).status,
    ).toBe(404);
  });

  it("When another business's location, a malformed id or an unknown id is named, then it is a 404", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await buildLocation(ctx.db, other.business.id);
    for (const id of [theirs.id, 'not-a-uuid', '0190c7f0-0000-7000-8000-000000000000']) {
      for (const method of ['get', 'patch', 'delete'] as const) {
        const agent = ctx.request();
        const res = await agent[method](`${base(t)}/${id}`)
          .set(as(t.ownerToken))
          .send({ name: 'Mine now' });
        expect(res.status, `${method} ${id}`).toBe(404);
      }
    }
    expect(
      (await ctx.request().get(`/businesses/${other.business.id}/locations/${theirs.id}`).set(as(other.ownerToken)))
        .body.name,
    ).toBe(theirs.name);
  });

  it.each([
    ['post', {}, 'name'],
    ['post', { name: '   ' }, 'name'],
    ['post', { name: 'x'.repeat(201) }, 'name'],
    ['post', { name: 'Bar', extra: 1 }, "unknown field(s) 'extra'"],
    ['patch', { name: 42 }, 'name'],
  ] as const)('When %s gets %j, then it is a 400 naming the field', async (method, body, named) => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    const path = method === 'post' ? base(t) : `${base(t)}/${location.id}`;
    const res = await ctx.request()[method](path).set(as(t.ownerToken)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(named);
  });

  it.each(['force=yes', 'force=1', 'force=true&force=true', 'cascade=true'])(
    'When delete is asked with %s, then it is a 400 and the location stays',
    async (query) => {
      const t = await buildTeam(ctx.db);
      const location = await buildLocation(ctx.db, t.business.id);
      const res = await ownerCall('delete', t, `/locations/${location.id}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Query failed:/);
      expect((await ownerCall('get', t, `/locations/${location.id}`)).status).toBe(200);
    },
  );

  it('When a suggestion or QR code names a location that was deleted, then it is a 400, never a 500', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    expect((await ownerCall('delete', t, `/locations/${location.id}`)).status).toBe(204);
    const suggestion = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Hello', location_id: location.id });
    expect(suggestion.status).toBe(400);
    const qr = await qrCodeAt(t, location.id, 'x');
    expect(qr.status).toBe(400);
  });
});
