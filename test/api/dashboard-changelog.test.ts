import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { postPageForm } from '../support/dashboard.js';
import { buildSuggestion, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
type Team = Awaited<ReturnType<typeof buildTeam>>;
const area = (team: Team) => `/app/b/${team.business.id}/changelog`;

/** The entries as the API reads them, drafts included. */
const entries = async (team: Team) =>
  (await ctx.request().get(`/businesses/${team.business.id}/changelog`).set('X-API-Key', team.read)).body.data as {
    id: string;
    title: string;
    body: string;
    suggestion_ids: string[];
    published_at: string | null;
  }[];

describe('The dashboard changelog (its forms run the changelog operations)', () => {
  it('When an admin previews, saves, changes and publishes an entry, then nothing is saved by the preview and the API reads the rest', async () => {
    const team = await buildTeam(ctx.db);
    const linked = await buildSuggestion(ctx.db, team.business.id, { content: 'Vegan food please' });
    await buildSuggestion(ctx.db, team.business.id, { content: 'Longer opening hours' });
    const agent = withSession(team.admin.token);
    const home = await agent.get(`/app/b/${team.business.id}`);
    expect(home.text).toContain(`href="${area(team)}"`);
    const editor = await agent.get(`${area(team)}/new`);
    expect(editor.status).toBe(200);
    expect(editor.text).toContain(`formaction="${area(team)}/preview"`);

    const fields = {
      title: 'Vegan menu',
      body: '**New** <script>alert(1)</script> [x](javascript:alert(1))',
      q: 'vegan',
      suggestion_ids: linked.id,
    };
    const preview = await postPageForm(agent, `${area(team)}/new`, `${area(team)}/preview`, fields);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<strong>New</strong> &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(preview.text).not.toContain('href="javascript:');
    expect(preview.text).toMatch(new RegExp(`id="pick-${linked.id}"[^>]*checked`));
    expect(preview.text).not.toContain('Longer opening hours');
    expect(await entries(team)).toEqual([]);

    const created = await postPageForm(agent, `${area(team)}/new`, area(team), fields);
    expect(created.status).toBe(303);
    const [draft] = await entries(team);
    expect(draft).toMatchObject({ title: 'Vegan menu', suggestion_ids: [linked.id], published_at: null });
    expect(created.headers.location).toBe(`${area(team)}/${draft!.id}?saved=added`);
    const shown = await agent.get(created.headers.location as string);
    expect(shown.text).toContain('The draft is saved.');
    expect(shown.text).toContain(`action="${area(team)}/${draft!.id}/publish"`);

    const changed = await postPageForm(agent, created.headers.location as string, `${area(team)}/${draft!.id}`, {
      title: 'Vegan menu, all week',
      body: 'Every day.',
    });
    expect(changed.headers.location).toBe(`${area(team)}/${draft!.id}?saved=changed`);
    expect((await entries(team))[0]).toMatchObject({ title: 'Vegan menu, all week', suggestion_ids: [] });

    const published = await postPageForm(
      agent,
      changed.headers.location as string,
      `${area(team)}/${draft!.id}/publish`,
      {
        complete_suggestions: 'true',
      },
    );
    expect(published.headers.location).toBe(`${area(team)}/${draft!.id}?saved=published`);
    expect((await entries(team))[0]!.published_at).not.toBeNull();
    const list = await agent.get(area(team));
    expect(list.text).toContain('Vegan menu, all week');
    expect(list.text).toContain('Published ');
    expect((await agent.get(`${area(team)}/${draft!.id}`)).text).not.toContain('/publish"');
  });

  it('When a form is refused, then the editor comes back with the field marked and the preview of what was sent', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postPageForm(agent, `${area(team)}/new`, area(team), { title: '', body: '# Kept' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('id="entry-title-error"');
    expect(res.text).toContain('<h1>Kept</h1>');
    expect(res.text).toContain('>Kept</textarea>'.replace('>Kept', '># Kept'));
    const foreign = await buildSuggestion(ctx.db, { content: 'Another business' });
    const refused = await postPageForm(agent, `${area(team)}/new`, area(team), {
      title: 'Mine',
      suggestion_ids: foreign.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Some of the chosen suggestions are no longer there: choose again.');
    expect(await entries(team)).toEqual([]);
  });

  it('When an entry is deleted, then the page asks first, and the post deletes it', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    await postPageForm(agent, `${area(team)}/new`, area(team), { title: 'Gone soon' });
    const [entry] = await entries(team);
    const ask = await agent.get(`${area(team)}/${entry!.id}/delete`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Delete “Gone soon”?');
    expect(await entries(team)).toHaveLength(1);
    const res = await postPageForm(agent, `${area(team)}/${entry!.id}/delete`, `${area(team)}/${entry!.id}/delete`);
    expect(res.headers.location).toBe(`${area(team)}?saved=deleted`);
    expect(await entries(team)).toEqual([]);
  });

  it('When a member opens the changelog, then they read it without forms, and their posts are refused', async () => {
    const team = await buildTeam(ctx.db);
    await postPageForm(withSession(team.ownerToken), `${area(team)}/new`, area(team), { title: 'Read only' });
    const [entry] = await entries(team);
    const agent = withSession(team.member.token);
    const list = await agent.get(area(team));
    expect(list.text).toContain('Only owners and admins write, publish and delete entries.');
    expect(list.text).not.toContain(`href="${area(team)}/new"`);
    const one = await agent.get(`${area(team)}/${entry!.id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain('<form method="post" action="/app/b/');
    expect((await agent.get(`${area(team)}/new`)).status).toBe(403);
    expect((await agent.get(`${area(team)}/${entry!.id}/delete`)).status).toBe(403);
    for (const action of [`${area(team)}/${entry!.id}/publish`, `${area(team)}/${entry!.id}/delete`]) {
      expect((await postPageForm(agent, area(team), action)).status).toBe(403);
    }
    expect((await postPageForm(agent, area(team), `${area(team)}/preview`, { title: 'x' })).status).toBe(403);
    expect((await entries(team))[0]).toMatchObject({ title: 'Read only', published_at: null });
  });
});
