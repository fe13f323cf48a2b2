import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { postPageForm } from '../support/dashboard.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const page = (businessId: string) => `/app/b/${businessId}/import`;

const CSV = 'content,status\r\nMore oat milk please,reviewing\r\nThe terrace is lovely,completed\r\n';

const total = async (key: string) =>
  ((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key)).body as { total: number }).total;

describe('The Import page (the form runs POST /businesses/{id}/imports)', () => {
  it('When an admin runs a dry run, then the report shows and nothing is written; then Import writes the rows', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    const settings = await agent.get(`/app/b/${team.business.id}/settings`);
    expect(settings.text).toContain(`href="${page(team.business.id)}"`);

    const dry = await postPageForm(agent, page(team.business.id), page(team.business.id), {
      kind: 'suggestions',
      columns: '',
      csv: CSV,
      dry_run: 'true',
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.text).toContain('Dry run: nothing was written');
    expect(dry.text).toContain('2 rows: 2 created, 0 already here, 0 with errors.');
    expect(dry.text).toContain('name="dry_run" value="false"');
    expect(await total(team.read)).toBe(0);

    const done = await postPageForm(agent, page(team.business.id), page(team.business.id), {
      kind: 'suggestions',
      columns: '',
      csv: CSV,
      dry_run: 'false',
    });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Imported');
    expect(await total(team.read)).toBe(2);
  });

  it('When a row has errors, then the dry run is a 422 naming the row and offers no Import', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postPageForm(agent, page(team.business.id), page(team.business.id), {
      kind: 'suggestions',
      csv: `${CSV},pending\r\n`,
      dry_run: 'true',
    });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<td>4<\/td><td>content<\/td><td>Empty, but required<\/td>/);
    expect(res.text).not.toContain('name="dry_run" value="false"');
  });

  it('When a member opens the page, then it is refused', async () => {
    const team = await buildTeam(ctx.db);
    const res = await withSession(team.member.token).get(page(team.business.id));
    expect(res.status).toBe(403);
  });
});
