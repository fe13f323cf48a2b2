import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { formTokenIn } from '../support/dashboard.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const page = (businessId: string) => `/app/b/${businessId}/import`;

const CSV = 'content,status\r\nMore oat milk please,reviewing\r\nThe terrace is lovely,completed\r\n';

const total = async (key: string) =>
  ((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key)).body as { total: number }).total;

/**
 * Posts the Import form as a browser does: multipart/form-data with the page's token, its fields, and
 * the file input (empty when no file is chosen, as a browser sends it).
 */
async function postImport(agent: supertest.Agent, businessId: string, fields: Record<string, string>, file?: string) {
  const shown = await agent.get(page(businessId));
  let post = agent
    .post(page(businessId))
    .set('Origin', 'http://localhost:3000')
    .field('_csrf', formTokenIn(shown.text));
  for (const [name, value] of Object.entries(fields)) post = post.field(name, value);
  return post.attach('file', Buffer.from(file ?? ''), {
    filename: file === undefined ? '' : 'feedback.csv',
    contentType: 'text/csv',
  });
}

describe('The Import page (the form runs POST /businesses/{id}/imports)', () => {
  it('When an admin dry-runs an uploaded file, then the report shows, nothing is written and the text is carried; Import writes the rows', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    const settings = await agent.get(`/app/b/${team.business.id}/settings`);
    expect(settings.text).toContain(`href="${page(team.business.id)}"`);
    const form = await agent.get(page(team.business.id));
    expect(form.text).toContain('enctype="multipart/form-data"');
    expect(form.text).toContain('type="file" accept=".csv,text/csv"');

    const dry = await postImport(agent, team.business.id, { kind: 'suggestions', columns: '', dry_run: 'true' }, CSV);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.text).toContain('Dry run: nothing was written');
    expect(dry.text).toContain('2 rows: 2 created, 0 already here, 0 with errors.');
    expect(dry.text).toContain('name="dry_run" value="false"');
    expect(dry.text).toContain('More oat milk please,reviewing');
    expect(await total(team.read)).toBe(0);

    // "Import" re-posts the carried text, with the file input empty.
    const done = await postImport(agent, team.business.id, { kind: 'suggestions', csv: CSV, dry_run: 'false' });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Imported');
    expect(await total(team.read)).toBe(2);
  });

  it('When a file is chosen and text is pasted too, then the file is what is read', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postImport(
      agent,
      team.business.id,
      { kind: 'suggestions', csv: 'content\r\nOnly one row\r\n', dry_run: 'true' },
      CSV,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('2 rows: 2 created');
  });

  it('When a row has errors, then the dry run is a 422 naming the row and offers no Import', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const res = await postImport(
      agent,
      team.business.id,
      { kind: 'suggestions', dry_run: 'true' },
      `${CSV},pending\r\n`,
    );
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<td>4<\/td><td>content<\/td><td>Empty, but required<\/td>/);
    expect(res.text).not.toContain('name="dry_run" value="false"');
  });

  it('When the form is past the page bound (5 MB), then it is refused with a 413 and nothing is written', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const big = `content\r\n${'A long suggestion text\r\n'.repeat(240_000)}`;
    const res = await postImport(agent, team.business.id, { kind: 'suggestions', dry_run: 'false' }, big);
    expect(res.status).toBe(413);
    expect(await total(team.read)).toBe(0);
  });

  it('When a member opens the page, then it is refused', async () => {
    const team = await buildTeam(ctx.db);
    const res = await withSession(team.member.token).get(page(team.business.id));
    expect(res.status).toBe(403);
  });
});
