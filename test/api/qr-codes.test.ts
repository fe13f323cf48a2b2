import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildLocation, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}/qr-codes`;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
/** The status of GET or DELETE on one of the team's QR code paths, as its owner. */
async function statusOf(method: 'get' | 'delete', t: Team, id: string): Promise<number> {
  const agent = ctx.request();
  const request = method === 'get' ? agent.get(`${base(t)}/${id}`) : agent.delete(`${base(t)}/${id}`);
  return (await request.set(asOwner(t))).status;
}

async function create(t: Team, body: Record<string, unknown>) {
  const res = await ctx.request().post(base(t)).set(asOwner(t)).send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as Record<string, unknown> & { id: string; url: string; code: string };
}

describe('/businesses/:id/qr-codes', () => {
  it('When a QR code is created, then it is active by default with a stable public url', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    const qr = await create(t, { label: 'Table 4', location_id: location.id });
    expect(Object.keys(qr)).toEqual([
      'id',
      'label',
      'code',
      'url',
      'location_id',
      'active',
      'created_at',
      'updated_at',
      'scans_last_30_days',
    ]);
    expect(qr).toMatchObject({ label: 'Table 4', active: true, location_id: location.id });
    expect(qr.code).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(qr.url).toBe(`http://localhost:3000/f/${qr.code}`);
    const read = await ctx
      .request()
      .get(`${base(t)}/${qr.id}`)
      .set(asOwner(t));
    expect(read.body.url).toBe(qr.url);
  });

  it('When label or active change, then the code and url stay the same', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await create(t, { label: 'Door', active: false });
    expect(qr.active).toBe(false);
    const res = await ctx
      .request()
      .patch(`${base(t)}/${qr.id}`)
      .set(asOwner(t))
      .send({ label: 'Front door', active: true });
    expect(res.body).toMatchObject({ label: 'Front door', active: true, code: qr.code, url: qr.url });
  });

  it('When listed, then the offset envelope applies and active filters', async () => {
    const t = await buildTeam(ctx.db);
    await create(t, { label: 'A' });
    await create(t, { label: 'B', active: false });
    const all = await ctx.request().get(base(t)).set(asOwner(t));
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const inactive = await ctx
      .request()
      .get(`${base(t)}?active=false`)
      .set(asOwner(t));
    expect(inactive.body.data.map((q: { label: string }) => q.label)).toEqual(['B']);
  });

  it('When a QR code is deleted, then it is a 204 and the code is gone', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await create(t, { label: 'Gone' });
    const res = await ctx
      .request()
      .delete(`${base(t)}/${qr.id}`)
      .set(asOwner(t));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await statusOf('get', t, qr.id)).toBe(404);
    expect(await statusOf('delete', t, qr.id)).toBe(404);
  });

  it('When the image is asked as SVG or PNG, then a QR image of the requested size comes back', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await create(t, { label: 'Img' });
    const svg = await ctx
      .request()
      .get(`${base(t)}/${qr.id}/image?format=svg&size=128`)
      .set(asOwner(t));
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.text ?? svg.body.toString()).toContain('width="128"');
    const png = await ctx
      .request()
      .get(`${base(t)}/${qr.id}/image?format=png&size=200`)
      .set(asOwner(t))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(png.headers['content-type']).toBe('image/png');
    const body = png.body as Buffer;
    expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(body.readUInt32BE(16)).toBe(200); // IHDR width
  });

  it.each([
    ['no label', {}, 'label'],
    ['an empty label', { label: ' ' }, 'label'],
    ['a label over 100 characters', { label: 'x'.repeat(101) }, 'label'],
    ['a non-boolean active', { label: 'x', active: 'yes' }, 'active'],
    ['an unknown field', { label: 'x', code: 'mine' }, 'code'],
  ])('When the body has %s, then it is a 400 naming the field', async (_label, body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().post(base(t)).set(asOwner(t)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("When location_id is another business's, then it is a 400", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const foreign = await buildLocation(ctx.db, other.business.id);
    const res = await ctx.request().post(base(t)).set(asOwner(t)).send({ label: 'x', location_id: foreign.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('location_id');
  });

  it.each([
    [{ format: 'gif' }, 'format'],
    [{ size: '10' }, 'size'],
    [{ size: '5000' }, 'size'],
  ])('When the image query is %j, then it is a 400', async (query, field) => {
    const t = await buildTeam(ctx.db);
    const qr = await create(t, { label: 'x' });
    const res = await ctx
      .request()
      .get(`${base(t)}/${qr.id}/image`)
      .query(query)
      .set(asOwner(t));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("When another business's QR code id is used, then it is a 404 and it survives", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await create(other, { label: 'Theirs' });
    expect(await statusOf('delete', t, theirs.id)).toBe(404);
    expect(await statusOf('get', other, theirs.id)).toBe(200);
  });
});
