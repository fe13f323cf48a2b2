import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { formTokenIn, postPageForm } from '../support/dashboard.js';
import { buildSuggestion, buildTag, buildTeam } from '../support/factories.js';

/**
 * What a newcomer hit in the dashboard (issue 40, item 6): History that read "reply: — → —", said
 * nothing of a merge's target and showed `in_progress`; a tag deleted in one click; no way to open an
 * issue from the page.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const ORIGIN = 'http://localhost:3000';
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const post = postPageForm;

function expectPage(res: supertest.Response, status: number) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/);
}

/** The History list of a page, as text: tags dropped, entities read. */
const historyOf = (html: string) =>
  (/<ol class="history">([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe("a suggestion's History", () => {
  const pageOf = (t: Team, id: string) => `/app/b/${t.business.id}/suggestions/${id}`;

  it('When a reply is added, changed and removed, then History shows each with its text, never "reply: — → —"', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk please' });
    const agent = withSession(t.ownerToken);
    const page = pageOf(t, s.id);
    expect((await post(agent, page, `${page}/reply`, { content: 'Coming in May' })).status).toBe(303);
    expect((await post(agent, page, `${page}/reply`, { content: 'Here since Monday' })).status).toBe(303);
    expect((await post(agent, page, `${page}/reply/remove`)).status).toBe(303);
    const history = historyOf((await agent.get(page)).text);
    expect(history).toContain('Reply added: “Coming in May”');
    expect(history).toContain('Reply changed to: “Here since Monday”');
    expect(history).toContain('Reply removed (it said: “Here since Monday”)');
    expect(history).not.toContain('—');
  });

  it('When the status moves, then History says it in the form\'s words ("In progress"), as the form offers them', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Longer hours' });
    const agent = withSession(t.member.token);
    const page = pageOf(t, s.id);
    expect((await post(agent, page, page, { status: 'in_progress' })).status).toBe(303);
    const html = (await agent.get(page)).text;
    expect(historyOf(html)).toContain('Status: Pending → In progress');
    expect(html).not.toContain('in_progress<');
    expect(html).toMatch(/<option value="in_progress" selected>In progress<\/option>/);
    expect(html).toMatch(/id="current-status">In progress</);
  });

  it('When a suggestion is merged and unmerged, then its History links the suggestion it went into', async () => {
    const t = await buildTeam(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id, { content: 'Add oat milk for the flat whites' });
    const duplicate = await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk for flat whites!' });
    const agent = withSession(t.member.token);
    const merged = await post(agent, pageOf(t, target.id), `${pageOf(t, target.id)}/merge`, {
      source_id: duplicate.id,
    });
    expect(merged.status).toBe(303);
    expect(merged.headers.location).toBe(`${pageOf(t, target.id)}?saved=merged#duplicates`);
    const html = (await agent.get(pageOf(t, duplicate.id))).text;
    const link = `<a href="${pageOf(t, target.id)}">Add oat milk for the flat whites</a>`;
    expect(html).toContain(`<strong>Merged into</strong> ${link}`);
    expect((await post(agent, pageOf(t, duplicate.id), `${pageOf(t, duplicate.id)}/unmerge`)).status).toBe(303);
    const after = (await agent.get(pageOf(t, duplicate.id))).text;
    expect(after).toContain(`<strong>Unmerged from</strong> ${link}`);
    const again = await post(agent, pageOf(t, duplicate.id), `${pageOf(t, duplicate.id)}/unmerge`);
    expectPage(again, 409);
    expect(again.text).toContain('This suggestion is not merged any more.');
  });
});

describe('deleting a tag', () => {
  const tags = (t: Team) => `/app/b/${t.business.id}/settings/tags`;

  it('When the owner clicks Delete, then a page asks first; only its form deletes the tag', async () => {
    const t = await buildTeam(ctx.db);
    const tag = await buildTag(ctx.db, t.business.id, { name: 'Terrace' });
    const agent = withSession(t.ownerToken);
    const list = await agent.get(tags(t));
    expect(list.text).not.toContain(`action="${tags(t)}/${tag.id}/delete"`);
    expect(list.text).toContain(`href="${tags(t)}/${tag.id}/delete"`);
    const ask = await agent.get(`${tags(t)}/${tag.id}/delete`);
    expectPage(ask, 200);
    expect(ask.text).toContain('Delete the tag “Terrace”?');
    expect(ask.text).toContain(`action="${tags(t)}/${tag.id}/delete"`);
    const bearer = { Authorization: `Bearer ${t.ownerToken}` };
    const before = await ctx.request().get(`/businesses/${t.business.id}/tags`).set(bearer);
    expect(before.body.data).toHaveLength(1);
    const deleted = await agent
      .post(`${tags(t)}/${tag.id}/delete`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(ask.text) });
    expect(deleted.status).toBe(303);
    expect((await ctx.request().get(`/businesses/${t.business.id}/tags`).set(bearer)).body.data).toEqual([]);
  });

  it('When a member or another business asks to delete a tag, then the page is refused; an unknown tag is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const tag = await buildTag(ctx.db, t.business.id, { name: 'Terrace' });
    expectPage(await withSession(t.member.token).get(`${tags(t)}/${tag.id}/delete`), 403);
    const other = await buildTeam(ctx.db);
    expectPage(await withSession(other.ownerToken).get(`${tags(t)}/${tag.id}/delete`), 403);
    expectPage(await withSession(other.ownerToken).get(`${tags(other)}/${tag.id}/delete`), 404);
    expectPage(await withSession(t.ownerToken).get(`${tags(t)}/not-a-tag/delete`), 404);
  });
});

describe('opening an issue from the Issues page', () => {
  const issues = (t: Team) => `/app/b/${t.business.id}/issues`;
  const bearer = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

  it('When an admin fills Title, Description, priority, assignee, customer and tags, then the API reads the issue so', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'card reader' });
    const agent = withSession(t.admin.token);
    const page = await agent.get(issues(t));
    expect(page.text).toContain('Open an issue');
    const res = await post(agent, issues(t), issues(t), {
      title: 'Card reader rejects contactless',
      description: 'Since this morning every tap is declined.',
      priority: 'high',
      assignee_id: t.member.id,
      customer_name: 'Ana Lima',
      customer_email: 'ana@example.test',
      tags: ['card reader'],
    });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const id = /\/issues\/([0-9a-f-]{36})\?saved=created$/.exec(res.headers.location as string)?.[1];
    expect(id).toBeDefined();
    const issue = await ctx.request().get(`/businesses/${t.business.id}/issues/${id}`).set(bearer(t));
    expect(issue.body).toMatchObject({
      title: 'Card reader rejects contactless',
      description: 'Since this morning every tap is declined.',
      priority: 'high',
      assignee_id: t.member.id,
      status: 'assigned',
      customer_name: 'Ana Lima',
      customer_email: 'ana@example.test',
      tags: ['card reader'],
    });
    const shown = await agent.get(res.headers.location as string);
    expect(shown.text).toContain('The issue is open: the team sees it in the list.');
    expect(shown.text).toContain('Card reader rejects contactless');
  });

  it('When only a title is given, then the issue opens with the defaults (medium, unassigned, no customer)', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.ownerToken);
    const res = await post(agent, issues(t), issues(t), {
      title: 'Wobbly table',
      description: '',
      priority: 'medium',
      assignee_id: '',
      customer_name: '',
      customer_email: '',
    });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const listed = await ctx.request().get(`/businesses/${t.business.id}/issues`).set(bearer(t));
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      title: 'Wobbly table',
      description: '',
      priority: 'medium',
      assignee_id: null,
      status: 'open',
      customer_email: null,
    });
  });

  it('When the title is empty or the email malformed, then the form comes back open with those fields marked and kept', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.ownerToken);
    const res = await post(agent, issues(t), issues(t), {
      title: '  ',
      description: 'Kept as typed',
      customer_email: 'not an address',
    });
    expectPage(res, 400);
    expect(res.text).toMatch(/<details class="card" id="new-issue" open>/);
    expect(res.text).toMatch(/id="issue-title"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The title is required.');
    expect(res.text).toMatch(/id="issue-customer_email"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The customer&#39;s email does not look right.');
    expect(res.text).toContain('>Kept as typed</textarea>');
    const listed = await ctx.request().get(`/businesses/${t.business.id}/issues`).set(bearer(t));
    expect(listed.body.data).toEqual([]);
  });

  it('When the assignee is not a member, then the form marks the assignee', async () => {
    const t = await buildTeam(ctx.db);
    const outsider = await buildTeam(ctx.db);
    const res = await post(withSession(t.ownerToken), issues(t), issues(t), {
      title: 'Broken tap',
      assignee_id: outsider.member.id,
    });
    expectPage(res, 400);
    expect(res.text).toMatch(/id="issue-assignee_id"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The assignee is not a member of this business.');
  });

  it('When a member opens Issues, then there is no form to open one, and their post is refused', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    const page = await agent.get(issues(t));
    expectPage(page, 200);
    expect(page.text).not.toContain('id="new-issue"');
    expectPage(await post(agent, issues(t), issues(t), { title: 'Mine' }), 403);
    const listed = await ctx.request().get(`/businesses/${t.business.id}/issues`).set(bearer(t));
    expect(listed.body.data).toEqual([]);
  });
});
