import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const patchColor = (t: Team, brand_color: string | null, token = t.ownerToken) =>
  ctx.request().patch(base(t)).set(as(token)).send({ brand_color });
const putLogo = (t: Team, bytes: Buffer, type: string, token = t.ownerToken) =>
  ctx
    .request()
    .put(`${base(t)}/logo`)
    .set(as(token))
    .set('Content-Type', type)
    .send(bytes);

const png = (width = 800, height = 400) =>
  sharp({ create: { width, height, channels: 4, background: { r: 29, g: 94, b: 52, alpha: 1 } } })
    .png()
    .toBuffer();

/** A photograph's JPEG, with the EXIF a phone writes (here a maker, a copyright and an orientation). */
const jpegWithExif = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#c0a060' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker', Copyright: 'Secret Owner' } })
    .toBuffer();

async function openPage(t: Team) {
  const qr = await buildQrCode(ctx.db, t.business.id);
  return () => ctx.request().get(`/f/${qr.code}`);
}

const stylesheetOf = (html: string) => /<link rel="stylesheet" href="(\/brand\/[^"]+\.css)"/.exec(html)?.[1];

describe('brand colour', () => {
  it('When a colour gives less than 4.5:1, then it is a 422 LOW_CONTRAST naming the ratio, and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    const res = await patchColor(t, '#FFD700');
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('LOW_CONTRAST');
    expect(res.body.message).toContain('1.28:1');
    expect(res.body.errors).toEqual([
      {
        field: 'brand_color',
        code: 'low_contrast',
        message: expect.stringContaining('1.28:1') as string,
        params: { ratio: '1.28', against: 'page_background', min: 4.5 },
      },
    ]);
    const after = await ctx.request().get(base(t)).set(as(t.member.token));
    expect(after.body.brand_color).toBeNull();
  });

  it('When a colour only a little too light is sent (#767676, 4.16:1 on the page), then it is refused too', async () => {
    const t = await buildTeam(ctx.db);
    const res = await patchColor(t, '#767676');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].params).toMatchObject({ ratio: '4.16', against: 'page_background' });
  });

  it('When a colour is not #RRGGBB, then it is a 400 on the field', async () => {
    const t = await buildTeam(ctx.db);
    const res = await patchColor(t, 'green');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('brand_color');
  });

  it("When a readable colour is set, then it is stored lower case and the page links a stylesheet of this service's that sets it", async () => {
    const t = await buildTeam(ctx.db);
    const open = await openPage(t);
    expect(stylesheetOf((await open()).text)).toBeUndefined();
    const res = await patchColor(t, '#1D5E34', t.admin.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.brand_color).toBe('#1d5e34');
    const page = await open();
    const href = stylesheetOf(page.text);
    expect(href).toMatch(/^\/brand\/1d5e34\.[0-9a-f]{12}\.css$/);
    expect(page.headers['content-security-policy']).toContain("style-src 'self'");
    const css = await ctx.request().get(href!);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.text).toContain('--brand: #1d5e34;');
    // Null gives the page its own colour back.
    expect((await patchColor(t, null)).body.brand_color).toBeNull();
    expect(stylesheetOf((await open()).text)).toBeUndefined();
  });

  it('When the business has a colour and a logo, then its roadmap page shows them too', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    await patchColor(t, '#1d5e34');
    const path = new URL((await putLogo(t, await png(64, 64), 'image/png')).body.url as string).pathname;
    const roadmap = await ctx.request().get(`/f/${qr.code}/roadmap`);
    expect(roadmap.status).toBe(200);
    expect(stylesheetOf(roadmap.text)).toMatch(/^\/brand\/1d5e34\./);
    expect(roadmap.text).toContain(`<img class="logo" src="${path}" alt="${t.business.name}"`);
  });

  it('When a stylesheet is asked for with a hash that is not its own, or for an unreadable colour, then it is a 404', async () => {
    expect((await ctx.request().get('/brand/1d5e34.000000000000.css')).status).toBe(404);
    expect((await ctx.request().get('/brand/ffd700.000000000000.css')).status).toBe(404);
  });
});

describe('logo', () => {
  it("When a PNG is put, then it is fitted into 512x512 and the page shows it with the business's name as alt, cached for a year", async () => {
    const t = await buildTeam(ctx.db);
    const open = await openPage(t);
    const res = await putLogo(t, await png(), 'image/png');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ content_type: 'image/png', width: 512, height: 256 });
    const path = new URL(res.body.url as string).pathname;
    expect(path).toMatch(new RegExp(`^/brand/${t.business.id}/logo\\.[0-9a-f]{16}\\.png$`));
    const page = await open();
    expect(page.text).toContain(`<img class="logo" src="${path}" alt="${t.business.name}" width="512" height="256" />`);
    const image = await ctx.request().get(path).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(image.body as Buffer).metadata()).toMatchObject({ format: 'png', width: 512, height: 256 });
  });

  it('When an SVG is put, as SVG or disguised as a PNG, then it is a 415', async () => {
    const t = await buildTeam(ctx.db);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const asSvg = await putLogo(t, svg, 'image/svg+xml');
    expect(asSvg.status).toBe(415);
    expect(asSvg.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const disguised = await putLogo(t, svg, 'image/png');
    expect(disguised.status).toBe(415);
    expect(disguised.body.errors[0]).toMatchObject({ field: 'logo', code: 'logo_type' });
  });

  it('When 600 KB are put, then it is a 413', async () => {
    const t = await buildTeam(ctx.db);
    const res = await putLogo(t, Buffer.alloc(600 * 1024, 1), 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('When the bytes start as a PNG but do not decode, then it is a 422 UNDECODABLE_IMAGE', async () => {
    const t = await buildTeam(ctx.db);
    const broken = Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(200, 7)]);
    const res = await putLogo(t, broken, 'image/png');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('UNDECODABLE_IMAGE');
  });

  it('When a JPEG with EXIF is put, then what is served is a JPEG without it', async () => {
    const t = await buildTeam(ctx.db);
    const sent = await jpegWithExif();
    expect((await sharp(sent).metadata()).exif).toBeDefined();
    expect(sent.includes('Secret Owner')).toBe(true);
    const res = await putLogo(t, sent, 'image/jpeg');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 200 });
    const served = (
      await ctx
        .request()
        .get(new URL(res.body.url as string).pathname)
        .buffer(true)
    ).body as Buffer;
    const meta = await sharp(served).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(served.includes('Secret Owner')).toBe(false);
    expect(served.includes('PhoneMaker')).toBe(false);
  });

  it('When the logo is deleted, then the page shows none and its address is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const open = await openPage(t);
    const put = await putLogo(t, await png(64, 64), 'image/png');
    const path = new URL(put.body.url as string).pathname;
    expect((await open()).text).toContain(path);
    const res = await ctx
      .request()
      .delete(`${base(t)}/logo`)
      .set(as(t.admin.token));
    expect(res.status).toBe(204);
    expect((await open()).text).not.toContain('class="logo"');
    expect((await ctx.request().get(path)).status).toBe(404);
    // Deleting again changes nothing and says so the same way.
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/logo`)
          .set(as(t.ownerToken))
      ).status,
    ).toBe(204);
  });

  it('When a member, a read key or a write key tries to change the brand, then it is a 403; a member still reads the colour', async () => {
    const t = await buildTeam(ctx.db);
    const logo = await png(32, 32);
    for (const token of [t.member.token, t.read, t.write]) {
      expect((await patchColor(t, '#1d5e34', token)).status).toBe(403);
      expect((await putLogo(t, logo, 'image/png', token)).status).toBe(403);
      expect(
        (
          await ctx
            .request()
            .delete(`${base(t)}/logo`)
            .set(as(token))
        ).status,
      ).toBe(403);
    }
    expect((await patchColor(t, '#1d5e34', t.admin.token)).status).toBe(200);
    const read = await ctx.request().get(base(t)).set(as(t.member.token));
    expect(read.body.brand_color).toBe('#1d5e34');
  });
});
