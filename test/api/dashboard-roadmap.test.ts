import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { postPageForm } from '../support/dashboard.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const page = (businessId: string) => `/app/b/${businessId}/settings/roadmap`;

/** The business as the API reads it. */
const business = async (team: Awaited<ReturnType<typeof buildTeam>>) =>
  (await ctx.request().get(`/businesses/${team.business.id}`).set('X-API-Key', team.read)).body as {
    roadmap_enabled: boolean;
    roadmap_statuses: string[];
  };

describe('Settings, Roadmap (the form runs PATCH /businesses/{id})', () => {
  it('When an admin turns the roadmap off and picks its columns, then the API reads the same and the form shows them', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    const settings = await agent.get(`/app/b/${team.business.id}/settings`);
    expect(settings.text).toContain(`href="${page(team.business.id)}"`);
    const shown = await agent.get(page(team.business.id));
    expect(shown.status).toBe(200);
    expect(shown.text).toMatch(/id="roadmap_enabled"[^>]*checked/);

    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), {
      column_1: 'in_progress',
      column_2: '',
      column_3: 'pending',
      column_4: '',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${page(team.business.id)}?saved=1`);
    expect(await business(team)).toMatchObject({
      roadmap_enabled: false,
      roadmap_statuses: ['in_progress', 'pending'],
    });
    const after = await agent.get(res.headers.location as string);
    expect(after.text).toContain('The roadmap settings are saved.');
    expect(after.text).not.toMatch(/id="roadmap_enabled"[^>]*checked/);
    expect(after.text).toMatch(/<select id="roadmap-column_1"[\s\S]*?value="in_progress" selected/);
  });

  it('When the same status is chosen twice, or none, then the form comes back with the columns marked and nothing changes', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    for (const [columns, words] of [
      [{ column_1: 'completed', column_2: 'completed' }, 'The columns: choose each one at most once.'],
      [{}, 'Choose at least 1 for The columns.'],
    ] as const) {
      const res = await postPageForm(agent, page(team.business.id), page(team.business.id), {
        roadmap_enabled: 'true',
        ...columns,
      });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain(`<p class="error" id="roadmap-columns-error">${words}</p>`);
      expect(res.text).toContain('aria-invalid="true"');
    }
    expect(await business(team)).toMatchObject({
      roadmap_enabled: true,
      roadmap_statuses: ['reviewing', 'in_progress', 'completed'],
    });
  });

  it('When a member opens it, then they see the settings without a form, and a post of theirs is refused', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.member.token);
    const shown = await agent.get(page(team.business.id));
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain('<form method="post" action="/app/b/');
    expect(shown.text).toContain('Only owners and admins change the roadmap settings.');
    expect(shown.text).toContain('Under review, In progress, Done');
    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), { column_1: 'pending' });
    expect(res.status).toBe(403);
    expect((await business(team)).roadmap_enabled).toBe(true);
  });
});
