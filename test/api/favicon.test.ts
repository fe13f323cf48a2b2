import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildLocation, buildQrCode, buildTenant } from '../support/factories.js';

const ctx = useTestApp();

/** An ICO file: reserved 0, type 1 (icon), at least one image. */
const ICO_HEADER = Buffer.from([0, 0, 1, 0]);

describe('/favicon.ico', () => {
  it('When a browser asks for the icon, then it is this service’s own, an icon cached for days', async () => {
    const res = await ctx.request().get('/favicon.ico').responseType('blob');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect((res.body as Buffer).subarray(0, 4)).toEqual(ICO_HEADER);
    const maxAge = Number(/(?:^|,\s*)public, max-age=(\d+)$/.exec(res.headers['cache-control'] ?? '')?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(7 * 24 * 60 * 60);
    expect((await ctx.request().head('/favicon.ico')).status).toBe(200);
  });

  it('When any page is opened, then it links the icon here, where it answers', async () => {
    const t = await buildTenant(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id, 'Terrace');
    const qr = await buildQrCode(ctx.db, t.business.id, { locationId: location.id, active: true });
    for (const path of ['/', `/f/${qr.code}`, '/f/Zz9Zz9Zz9Z', '/app/sign-in', '/docs']) {
      // Pages, not API operations: the dashboard's are outside the contract check.
      const page = await supertest(ctx.app).get(path);
      expect(page.headers['content-type'], path).toMatch(/^text\/html/);
      expect(page.text, path).toContain('<link rel="icon" href="/favicon.ico" />');
    }
  });
});
