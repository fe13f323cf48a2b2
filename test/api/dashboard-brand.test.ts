import sharp from 'sharp';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { formTokenIn, postPageForm } from '../support/dashboard.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const page = (businessId: string) => `/app/b/${businessId}/settings/brand`;
type Team = Awaited<ReturnType<typeof buildTeam>>;

const business = async (team: Team) =>
  (await ctx.request().get(`/businesses/${team.business.id}`).set('X-API-Key', team.read)).body as {
    brand_color: string | null;
  };

/** Posts the logo form as a browser does: multipart/form-data with the page's token and the file. */
async function postLogo(agent: supertest.Agent, team: Team, file: Buffer, name = 'logo.png', type = 'image/png') {
  const shown = await agent.get(page(team.business.id));
  return agent
    .post(`${page(team.business.id)}/logo`)
    .set('Origin', 'http://localhost:3000')
    .field('_csrf', formTokenIn(shown.text))
    .attach('logo', file, { filename: name, contentType: type });
}

const png = () =>
  sharp({ create: { width: 120, height: 60, channels: 3, background: '#1d5e34' } })
    .png()
    .toBuffer();

describe('Settings, Brand (the forms run PATCH /businesses/{id} and PUT, DELETE /businesses/{id}/logo)', () => {
  it('When an admin saves a readable colour, then the API reads it and the preview takes it from its stylesheet', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    expect((await agent.get(`/app/b/${team.business.id}/settings`)).text).toContain(`href="${page(team.business.id)}"`);
    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), { brand_color: '#1D5E34' });
    expect(res.status, res.text).toBe(303);
    expect(res.headers.location).toBe(`${page(team.business.id)}?saved=color`);
    expect((await business(team)).brand_color).toBe('#1d5e34');
    const after = await agent.get(res.headers.location as string);
    expect(after.text).toContain('The colour is saved.');
    expect(after.text).toMatch(/<link rel="stylesheet" href="\/brand\/1d5e34\.[0-9a-f]{12}\.css" \/>/);
    expect(after.text).toContain('class="brand-button"');
  });

  it('When the colour reads badly, then the form comes back with the ratio on the field, in the catalogue’s words, and nothing changes', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), { brand_color: '#ffd700' });
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<p class="error" id="brand-color-error">Brand colour gives 1.28:1 against the page&#39;s background: at least 4.5:1 is needed so everyone can read it. Choose a darker colour.</p>',
    );
    expect(res.text).toMatch(/id="brand-color"[^>]*value="#ffd700"[^>]*aria-invalid="true"/);
    expect((await business(team)).brand_color).toBeNull();
  });

  it('When a colour is previewed, then the page shows it without saving it, or says why it would be refused', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.member.token);
    const readable = await agent.get(`${page(team.business.id)}?preview=%231d5e34`);
    expect(readable.text).toContain('The page with #1d5e34 (not saved):');
    expect(readable.text).toMatch(/href="\/brand\/1d5e34\.[0-9a-f]{12}\.css"/);
    const unreadable = await agent.get(`${page(team.business.id)}?preview=%23ffd700`);
    expect(unreadable.text).toContain('#ffd700 gives 1.28:1 against the page&#39;s background');
    expect((await business(team)).brand_color).toBeNull();
  });

  it('When an owner uploads a PNG, then the page and the public page show it, and removing it takes it away', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postLogo(agent, team, await png());
    expect(res.status, res.text).toBe(303);
    expect(res.headers.location).toBe(`${page(team.business.id)}?saved=logo`);
    const after = await agent.get(res.headers.location as string);
    expect(after.text).toMatch(
      new RegExp(
        `<img src="/brand/${team.business.id}/logo\\.[0-9a-f]{16}\\.png" alt="${team.business.name}" width="120" height="60" />`,
      ),
    );
    const removed = await postPageForm(agent, page(team.business.id), `${page(team.business.id)}/logo/delete`);
    expect(removed.status).toBe(303);
    expect((await agent.get(removed.headers.location as string)).text).not.toContain('<img src="/brand/');
  });

  it('When an SVG or a file that does not decode is uploaded, then the form comes back with the words on the file field', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const svg = await postLogo(
      agent,
      team,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'a.svg',
      'image/svg+xml',
    );
    expect(svg.status).toBe(415);
    expect(svg.text).toContain(
      '<p class="error" id="brand-logo-error">The logo must be a PNG, JPEG or WebP image (SVG is not accepted).</p>',
    );
    const broken = Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(100, 3)]);
    const undecodable = await postLogo(agent, team, broken);
    expect(undecodable.status).toBe(422);
    expect(undecodable.text).toContain('could not be read as an image');
  });

  it('When a member opens it, then there is no form to change the brand, and their posts are refused', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.member.token);
    const shown = await agent.get(page(team.business.id));
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain(`<form method="post" action="${page(team.business.id)}`);
    expect(shown.text).toContain('Only owners and admins change the brand.');
    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), { brand_color: '#1d5e34' });
    expect(res.status).toBe(403);
    expect((await postLogo(agent, team, await png())).status).toBe(403);
    expect((await business(team)).brand_color).toBeNull();
  });
});
