import QRCode from 'qrcode';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { formTokenIn, postPageForm } from '../support/dashboard.js';
import { buildIssue, buildLocation, buildQrCode, buildSuggestion, buildTag, buildTeam } from '../support/factories.js';

const ctx = useTestApp();

/** The service's own origin as the app is configured (PUBLIC_BASE_URL's default): what its pages post from. */
const ORIGIN = 'http://localhost:3000';
type Team = Awaited<ReturnType<typeof buildTeam>>;

const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);

/** What every page of the dashboard must be: HTML, never JSON, never a stack. */
function expectPage(res: supertest.Response, status: number) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/);
}

/** Posts a form of the page `from`, with its token, as the page would. */
const post = postPageForm;

const readJson = async (t: Team, id: string) =>
  (await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read)).body as {
    status: string;
    priority: string;
  };

interface UpdateEvent {
  type: string;
  data: { object: { id: string }; changes?: Record<string, { from: unknown; to: unknown }> };
}

/**
 * The business's suggestion.updated events once `count` are listed: on PostgreSQL the feed lists an
 * event only once every older transaction on the server has ended, so it is read a bounded number of times.
 */
async function suggestionUpdates(t: Team, count: number): Promise<UpdateEvent[]> {
  let updates: UpdateEvent[] = [];
  for (let i = 0; i < 100; i++) {
    const feed = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query({ limit: 100 });
    updates = (feed.body.data as UpdateEvent[]).filter((e) => e.type === 'suggestion.updated');
    if (updates.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return updates;
}

describe('the inbox', () => {
  const home = (t: Team) => `/app/b/${t.business.id}`;

  it('When the inbox is opened, then it lists suggestions newest first with their customer, votes, sentiment and age, and the exact total', async () => {
    const t = await buildTeam(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Older: a quieter corner', customerName: 'Ana Lima' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'Newer: oat milk please', sentiment: 'positive' });
    const res = await withSession(t.member.token).get(home(t));
    expectPage(res, 200);
    expect(res.text).toMatch(/Inbox <span class="total" id="inbox-total">2<\/span>/);
    expect(res.text.indexOf('Newer: oat milk please')).toBeLessThan(res.text.indexOf('Older: a quieter corner'));
    expect(res.text).toContain('Ana Lima');
    expect(res.text).toContain('<td data-label="Sentiment">Positive</td>');
    expect(res.text).toContain('just now');
  });

  it('When the home is opened again after changes made elsewhere, then it shows each of them (the kept page is never stale)', async () => {
    const t = await buildTeam(ctx.db);
    const kiosk = await buildLocation(ctx.db, t.business.id, 'Harbour kiosk');
    const first = await buildSuggestion(ctx.db, t.business.id, { content: 'Warmer croissants' });
    const agent = withSession(t.member.token);
    const seen = await agent.get(home(t));
    expect(seen.text).toContain('Pending · Medium');
    expect((await agent.get(home(t))).text).toBe(seen.text);
    const owner = { Authorization: `Bearer ${t.ownerToken}` };
    // through the API
    await ctx
      .request()
      .patch(`/businesses/${t.business.id}/suggestions/${first.id}`)
      .set(owner)
      .send({ status: 'reviewing' })
      .expect(200);
    expect((await agent.get(home(t))).text).toContain('Reviewing · Medium');
    // by hand in SQL, as an operator would
    await ctx.db.pool.query(`UPDATE suggestions SET content = 'Hot croissants' WHERE id = $1`, [first.id]);
    expect((await agent.get(home(t))).text).toContain('Hot croissants');
    // what the page shows beside the list: a location's name, the business's settings, the user's name
    await ctx
      .request()
      .patch(`/businesses/${t.business.id}/locations/${kiosk.id}`)
      .set(owner)
      .send({ name: 'Pier kiosk' })
      .expect(200);
    await ctx.request().patch(`/businesses/${t.business.id}`).set(owner).send({ approval_required: true }).expect(200);
    await ctx.db.pool.query(`UPDATE users SET name = 'Rui Costa' WHERE id = $1`, [t.member.id]);
    const later = await agent.get(home(t));
    expect(later.text).toContain('Pier kiosk');
    expect(later.text).not.toContain('Harbour kiosk');
    expect(later.text).toContain('id="filter-review"');
    expect(later.text).toContain('Rui Costa');
  });

  it("When two members open the same inbox, then each page carries its own session's form token and role", async () => {
    const t = await buildTeam(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk please' });
    const member = withSession(t.member.token);
    const admin = withSession(t.admin.token);
    const memberPage = await member.get(home(t));
    const adminPage = await admin.get(home(t));
    expect(formTokenIn(memberPage.text)).not.toBe(formTokenIn(adminPage.text));
    // a member may not change the priority; an admin may
    expect(memberPage.text).not.toContain('id="bulk-priority"');
    expect(adminPage.text).toContain('id="bulk-priority"');
    // the member's kept page still posts as the member
    const id = /name="id" value="([^"]+)"/.exec(memberPage.text)![1]!;
    const changed = await member
      .post(`${home(t)}/suggestions/bulk`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn((await member.get(home(t))).text), id, status: 'completed' });
    expect(changed.status).toBe(303);
    expect((await readJson(t, id)).status).toBe('completed');
  });

  it('When the inbox is filtered and searched, then it shows what the API list shows for the same query', async () => {
    const t = await buildTeam(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Coffee is cold', priority: 'high' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'Coffee is great', priority: 'low' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'Tea is fine', priority: 'high' });
    const res = await withSession(t.member.token).get(home(t)).query({ priority: 'high', q: 'cof' });
    expectPage(res, 200);
    expect(res.text).toContain('Coffee is cold');
    expect(res.text).not.toContain('Coffee is great');
    expect(res.text).not.toContain('Tea is fine');
    expect(res.text).toMatch(/id="inbox-total">1</);
    const api = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .query({ priority: 'high', q: 'cof' });
    expect(api.body.total).toBe(1);
  });

  it('When a filter is not one the API accepts, then the inbox comes back as a 400 page with that filter marked', async () => {
    const t = await buildTeam(ctx.db);
    const res = await withSession(t.member.token).get(home(t)).query({ status: 'lost' });
    expectPage(res, 400);
    expect(res.text).toMatch(/id="filter-status"[^>]*aria-invalid="true"/);
    const paging = await withSession(t.member.token).get(home(t)).query({ limit: '1000' });
    expectPage(paging, 400);
    expect(paging.text).toContain('The page size');
  });

  it('When a tag or search filter holds a NUL, then the inbox is a 400 page with the filter marked, never a 500', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    const tag = await withSession(t.member.token).get(`${home(t)}?tag=%00`);
    expectPage(tag, 400);
    expect(tag.text).toMatch(/id="filter-tag"[^>]*aria-invalid="true"/);
    const both = await withSession(t.member.token).get(`${home(t)}?q=%00&tag=terrace%00`);
    expectPage(both, 400);
    const api = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions?tag=%00`)
      .set('Authorization', `Bearer ${t.ownerToken}`);
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ code: 'INVALID_QUERY' });
    expect(api.body.message).toMatch(/^Query failed: tag/);
  });

  it('When the inbox is filtered by location, visibility or awaiting review, then only those show, with their exact total', async () => {
    const t = await buildTeam(ctx.db);
    const kiosk = await buildLocation(ctx.db, t.business.id, 'Harbour kiosk');
    await buildSuggestion(ctx.db, t.business.id, { content: 'At the kiosk', locationId: kiosk.id });
    await buildSuggestion(ctx.db, t.business.id, { content: 'Shown to all', visibility: 'public' });
    await buildSuggestion(ctx.db, t.business.id, {
      content: 'Held back',
      visibility: 'public',
      reviewState: 'pending',
    });
    const agent = withSession(t.member.token);
    const before = await agent.get(home(t));
    expect(before.text).not.toContain('id="filter-review"');
    const at = await agent.get(home(t)).query({ location_id: kiosk.id });
    expect(at.text).toMatch(/id="inbox-total">1</);
    expect(at.text).toContain('At the kiosk');
    const shown = await agent.get(home(t)).query({ visibility: 'public' });
    expect(shown.text).toMatch(/id="inbox-total">2</);
    expect(shown.text).not.toContain('At the kiosk');
    await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ approval_required: true })
      .expect(200);
    const awaiting = await agent.get(home(t)).query({ review: 'pending' });
    expectPage(awaiting, 200);
    expect(awaiting.text).toContain('id="filter-review"');
    expect(awaiting.text).toMatch(/id="inbox-total">1</);
    expect(awaiting.text).toContain('Held back');
    expect(awaiting.text).not.toContain('Shown to all');
    const bad = await agent.get(home(t)).query({ location_id: 'kiosk' });
    expectPage(bad, 400);
    expect(bad.text).toMatch(/id="filter-location_id"[^>]*aria-invalid="true"/);
  });

  it('When there are more suggestions than a page, then paging walks them with limit and offset', async () => {
    const t = await buildTeam(ctx.db);
    for (let i = 0; i < 3; i++) await buildSuggestion(ctx.db, t.business.id, { content: `Idea number ${i}` });
    const first = await withSession(t.member.token).get(home(t)).query({ limit: '2' });
    expectPage(first, 200);
    expect(first.text).toContain('Showing 1–2 of 3');
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(next).toBe(`${home(t)}?limit=2&offset=2`);
    const second = await withSession(t.member.token).get(next);
    expect(second.text).toContain('Showing 3–3 of 3');
    expect(second.text).not.toMatch(/rel="next"/);
  });

  it('When a member changes the status of several at once, then the API reads the new status and the feed has one event per suggestion', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'First' });
    const b = await buildSuggestion(ctx.db, t.business.id, { content: 'Second' });
    const c = await buildSuggestion(ctx.db, t.business.id, { content: 'Third' });
    const agent = withSession(t.member.token);
    // the API list is cached before the change: the inbox must not show it stale after
    await withSession(t.member.token).get(home(t));
    const res = await post(agent, home(t), `${home(t)}/suggestions/bulk`, { id: [a.id, b.id], status: 'in_progress' });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    expect(res.headers.location).toBe(`${home(t)}?saved=changed`);
    expect((await readJson(t, a.id)).status).toBe('in_progress');
    expect((await readJson(t, b.id)).status).toBe('in_progress');
    expect((await readJson(t, c.id)).status).toBe('pending');
    const after = await agent.get(home(t)).query({ status: 'in_progress' });
    expect(after.text).toMatch(/id="inbox-total">2</);
    const updates = await suggestionUpdates(t, 2);
    expect(updates.map((e) => e.data.object.id).sort()).toEqual([a.id, b.id].sort());
    expect(updates.map((e) => e.data.changes?.status?.to)).toEqual(['in_progress', 'in_progress']);
  });

  it('When a member changes the priority at once, then it is refused as on the API, and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'First' });
    const page = await withSession(t.member.token).get(home(t));
    expect(page.text).not.toContain('id="bulk-priority"');
    const res = await post(withSession(t.member.token), home(t), `${home(t)}/suggestions/bulk`, {
      id: [a.id],
      priority: 'critical',
    });
    expectPage(res, 403);
    expect((await readJson(t, a.id)).priority).toBe('medium');
    const admin = await post(withSession(t.admin.token), home(t), `${home(t)}/suggestions/bulk`, {
      id: [a.id],
      priority: 'critical',
    });
    expect(admin.status).toBe(303);
    expect((await readJson(t, a.id)).priority).toBe('critical');
  });

  it('When nothing is selected or no change chosen, then the inbox comes back as a 400 page with the field marked', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'First' });
    const agent = withSession(t.admin.token);
    const none = await post(agent, home(t), `${home(t)}/suggestions/bulk`, { status: 'completed' });
    expectPage(none, 400);
    expect(none.text).toContain('Select at least one suggestion.');
    expect(none.text).toMatch(/id="select-[^"]+"[^>]*aria-invalid="true"/);
    const nothing = await post(agent, home(t), `${home(t)}/suggestions/bulk`, { id: [a.id], status: '' });
    expectPage(nothing, 400);
    expect(nothing.text).toMatch(/id="bulk-status"[^>]*aria-invalid="true"/);
    const bad = await post(agent, home(t), `${home(t)}/suggestions/bulk`, { id: [a.id], status: 'lost' });
    expectPage(bad, 400);
    expect(bad.text).toMatch(/id="bulk-status"[^>]*aria-invalid="true"/);
    const forged = await post(agent, home(t), `${home(t)}/suggestions/bulk`, {
      id: ['not-an-id'],
      status: 'completed',
    });
    expectPage(forged, 400);
    expect((await readJson(t, a.id)).status).toBe('pending');
  });

  it("When someone changes another business's suggestions, then it is refused and they stay as they are", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await buildSuggestion(ctx.db, other.business.id, { content: 'Theirs' });
    const agent = withSession(t.ownerToken);
    const into = await post(agent, home(t), `${home(other)}/suggestions/bulk`, { id: [theirs.id], status: 'rejected' });
    expectPage(into, 403);
    // another business's id is not one of this inbox: the operation's 404, the selection marked
    const mine = await post(agent, home(t), `${home(t)}/suggestions/bulk`, { id: [theirs.id], status: 'rejected' });
    expectPage(mine, 404);
    expect(mine.text).toContain('A selected suggestion is not in this inbox any more: reload it and select again.');
    expect((await readJson(other, theirs.id)).status).toBe('pending');
  });

  it('When the bulk form is posted without its token, then it is refused', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'First' });
    const res = await withSession(t.ownerToken)
      .post(`${home(t)}/suggestions/bulk`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ id: a.id, status: 'completed' });
    expectPage(res, 403);
    expect((await readJson(t, a.id)).status).toBe('pending');
  });
});

describe("a suggestion's page", () => {
  const pageOf = (t: Team, id: string) => `/app/b/${t.business.id}/suggestions/${id}`;

  it('When a suggestion is opened, then it shows its content, customer, location, votes, history and comments', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id, 'Harbour kiosk');
    const created = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({
        content: 'Longer hours on Sundays',
        customer_name: 'Ana Lima',
        customer_email: 'ana@example.test',
        location_id: location.id,
      })
      .expect(201);
    const id = created.body.id as string;
    await ctx
      .request()
      .post(`/api/v1/suggestions/${id}/comments`)
      .set('X-API-Key', t.write)
      .send({ content: 'We will try it in May' })
      .expect(201);
    await ctx
      .request()
      .patch(`/api/v1/suggestions/${id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'reviewing' })
      .expect(200);
    const res = await withSession(t.member.token).get(pageOf(t, id));
    expectPage(res, 200);
    for (const text of [
      'Longer hours on Sundays',
      'Ana Lima',
      'ana@example.test',
      'Harbour kiosk',
      'We will try it in May',
    ]) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toContain('Status: Pending → Reviewing');
    expect(res.text).toContain('by API key Zapier sync');
  });

  it('When a member saves the status, then the API reads it; a priority or visibility change or a review is refused', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Quieter music' });
    const agent = withSession(t.member.token);
    const page = await agent.get(pageOf(t, s.id));
    expect(page.text).toContain('id="change-status"');
    expect(page.text).not.toContain('id="change-priority"');
    const saved = await post(agent, pageOf(t, s.id), pageOf(t, s.id), { status: 'completed' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`${pageOf(t, s.id)}?saved=changed`);
    expect((await readJson(t, s.id)).status).toBe('completed');
    expectPage(await post(agent, pageOf(t, s.id), pageOf(t, s.id), { priority: 'high' }), 403);
    expectPage(await post(agent, pageOf(t, s.id), `${pageOf(t, s.id)}/review`, { review: 'approve' }), 403);
    expect((await readJson(t, s.id)).priority).toBe('medium');
  });

  it('When an admin approves a suggestion awaiting review, then it is public and approved; a second decision is a 409 page', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, {
      content: 'A bike rack',
      visibility: 'public',
      reviewState: 'pending',
    });
    const agent = withSession(t.admin.token);
    const page = await agent.get(pageOf(t, s.id));
    expect(page.text).toContain('Awaiting review');
    const approved = await post(agent, pageOf(t, s.id), `${pageOf(t, s.id)}/review`, { review: 'approve' });
    expect(approved.status).toBe(303);
    const json = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions/${s.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`);
    expect(json.body).toMatchObject({ visibility: 'public', review_state: 'approved' });
    const again = await post(agent, pageOf(t, s.id), `${pageOf(t, s.id)}/review`, { review: 'reject' });
    expectPage(again, 409);
    // A conflict without a field is the error page, in the 409's words: never the error's message.
    expect(again.text).toContain('That cannot be done in the state things are in now.');
    const bad = await post(agent, pageOf(t, s.id), pageOf(t, s.id), { status: 'lost' });
    expectPage(bad, 400);
    expect(bad.text).toMatch(/id="change-status"[^>]*aria-invalid="true"/);
  });

  it('When a member comments, then the comment is listed by the API; an empty one comes back marked', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Quieter music' });
    const agent = withSession(t.member.token);
    const added = await post(agent, pageOf(t, s.id), `${pageOf(t, s.id)}/comments`, { content: 'Agreed, too loud' });
    expect(added.status).toBe(303);
    const comments = await ctx.request().get(`/api/v1/suggestions/${s.id}/comments`).set('X-API-Key', t.read);
    expect((comments.body.data as { content: string }[]).map((c) => c.content)).toEqual(['Agreed, too loud']);
    const empty = await post(agent, pageOf(t, s.id), `${pageOf(t, s.id)}/comments`, { content: '   ' });
    expectPage(empty, 400);
    expect(empty.text).toMatch(/id="comment-content"[^>]*aria-invalid="true"/);
  });

  it('When an owner replies in public from the page, then the API and the public page carry it; a member may not; removing it clears it', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'A ramp at the door', visibility: 'public' });
    const owner = withSession(t.ownerToken);
    const empty = await post(owner, pageOf(t, s.id), `${pageOf(t, s.id)}/reply`, { content: '  ' });
    expectPage(empty, 400);
    expect(empty.text).toMatch(/id="reply-content"[^>]*aria-invalid="true"/);

    const saved = await post(owner, pageOf(t, s.id), `${pageOf(t, s.id)}/reply`, { content: 'Coming in May' });
    expect(saved.status).toBe(303);
    const read = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
    expect(read.body.reply).toMatchObject({ content: 'Coming in May', author_name: expect.any(String) });
    expect((await ctx.request().get(`/f/${qr.code}`)).text).toContain('Coming in May');
    const page = await owner.get(pageOf(t, s.id));
    expect(page.text).toMatch(/id="current-reply"[^>]*>Coming in May</);

    const member = withSession(t.member.token);
    expect((await member.get(pageOf(t, s.id))).text).not.toContain('/reply"');
    const refused = await post(member, pageOf(t, s.id), `${pageOf(t, s.id)}/reply`, { content: 'Never' });
    expectPage(refused, 403);

    const removed = await post(owner, pageOf(t, s.id), `${pageOf(t, s.id)}/reply/remove`, {});
    expect(removed.status).toBe(303);
    const after = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
    expect(after.body.reply).toBeNull();
  });

  it("When someone opens or changes another business's suggestion, then it is refused; an unknown one is a 404 page", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await buildSuggestion(ctx.db, other.business.id, { content: 'Theirs' });
    const agent = withSession(t.ownerToken);
    expectPage(await agent.get(pageOf(other, theirs.id)), 403);
    expectPage(await agent.get(pageOf(t, theirs.id)), 404);
    expectPage(await agent.get(pageOf(t, 'not-an-id')), 404);
    const into = await post(agent, `/app/b/${t.business.id}`, pageOf(t, theirs.id), { status: 'rejected' });
    expectPage(into, 404);
    expect((await readJson(other, theirs.id)).status).toBe('pending');
  });
});

describe('issues', () => {
  const list = (t: Team) => `/app/b/${t.business.id}/issues`;
  const pageOf = (t: Team, id: string) => `${list(t)}/${id}`;
  const issueJson = async (t: Team, id: string) =>
    (await ctx.request().get(`/api/v1/issues/${id}`).set('X-API-Key', t.read)).body as {
      status: string;
      priority: string;
      assignee_id: string | null;
      resolved_at: string | null;
    };

  it('When the issues are listed and filtered, then the page shows what the API list shows', async () => {
    const t = await buildTeam(ctx.db);
    await buildIssue(ctx.db, t.business.id, { title: 'Broken tap', priority: 'high' });
    await buildIssue(ctx.db, t.business.id, { title: 'Wobbly table', priority: 'low' });
    const all = await withSession(t.member.token).get(list(t));
    expectPage(all, 200);
    expect(all.text).toMatch(/id="issues-total">2</);
    const high = await withSession(t.member.token).get(list(t)).query({ priority: 'high' });
    expect(high.text).toContain('Broken tap');
    expect(high.text).not.toContain('Wobbly table');
    const bad = await withSession(t.member.token).get(list(t)).query({ assignee_id: 'someone' });
    expectPage(bad, 400);
    expect(bad.text).toMatch(/id="filter-assignee_id"[^>]*aria-invalid="true"/);
  });

  it('When an admin assigns an issue and resolves it, then the API reads the assignee and resolved_at', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await buildIssue(ctx.db, t.business.id, { title: 'Broken tap' });
    const agent = withSession(t.admin.token);
    const assigned = await post(agent, pageOf(t, issue.id), pageOf(t, issue.id), { assignee_id: t.member.id });
    expect(assigned.status, assigned.text.slice(0, 300)).toBe(303);
    expect(await issueJson(t, issue.id)).toMatchObject({ assignee_id: t.member.id, status: 'assigned' });
    const resolved = await post(agent, pageOf(t, issue.id), pageOf(t, issue.id), { status: 'resolved' });
    expect(resolved.status).toBe(303);
    expect((await issueJson(t, issue.id)).resolved_at).not.toBeNull();
    const page = await agent.get(pageOf(t, issue.id));
    expect(page.text).toMatch(/id="current-status">Resolved</);
    const outsider = await buildTeam(ctx.db);
    const wrong = await post(agent, pageOf(t, issue.id), pageOf(t, issue.id), { assignee_id: outsider.member.id });
    expectPage(wrong, 400);
    expect(wrong.text).toMatch(/id="change-assignee_id"[^>]*aria-invalid="true"/);
  });

  it('When a member changes the status and comments, then both are saved; assigning is refused as on the API', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await buildIssue(ctx.db, t.business.id, { title: 'Broken tap' });
    const agent = withSession(t.member.token);
    const page = await agent.get(pageOf(t, issue.id));
    expect(page.text).not.toContain('id="change-assignee_id"');
    expect((await post(agent, pageOf(t, issue.id), pageOf(t, issue.id), { status: 'in_progress' })).status).toBe(303);
    expect((await issueJson(t, issue.id)).status).toBe('in_progress');
    const assign = await post(agent, pageOf(t, issue.id), pageOf(t, issue.id), { assignee_id: t.member.id });
    expectPage(assign, 403);
    expect((await issueJson(t, issue.id)).assignee_id).toBeNull();
    const commented = await post(agent, pageOf(t, issue.id), `${pageOf(t, issue.id)}/comments`, {
      content: 'Plumber called',
    });
    expect(commented.status).toBe(303);
    expect((await agent.get(pageOf(t, issue.id))).text).toContain('Plumber called');
    const empty = await post(agent, pageOf(t, issue.id), `${pageOf(t, issue.id)}/comments`, { content: '' });
    expectPage(empty, 400);
    expect(empty.text).toMatch(/id="comment-content"[^>]*aria-invalid="true"/);
  });

  it("When someone opens another business's issue, then it is refused", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await buildIssue(ctx.db, other.business.id, { title: 'Theirs' });
    expectPage(await withSession(t.ownerToken).get(pageOf(other, theirs.id)), 403);
    expectPage(await withSession(t.ownerToken).get(pageOf(t, theirs.id)), 404);
  });
});

describe('QR codes', () => {
  const list = (t: Team) => `/app/b/${t.business.id}/qr-codes`;
  const codesJson = async (t: Team) =>
    (await ctx.request().get(`/businesses/${t.business.id}/qr-codes`).set('Authorization', `Bearer ${t.ownerToken}`))
      .body as { data: { id: string; label: string; active: boolean; url: string; location_id: string | null }[] };

  /**
   * The SVG's dark modules, read back from its path (qrcode draws each row's runs: `M x y`, `m dx dy`,
   * `h n`, in module units with a margin of 2), compared with the matrix of the code for `url`.
   */
  function svgShowsCodeFor(svg: string, url: string): boolean {
    const { size, data } = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
    const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
    const dark = new Set<number>();
    let x = 0;
    let y = 0;
    for (const [, op, a, b] of path.matchAll(/([MmhHv])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
      if (op === 'M') [x, y] = [Number(a), Number(b)];
      else if (op === 'm') [x, y] = [x + Number(a), y + Number(b)];
      else if (op === 'h') {
        for (let i = 0; i < Number(a); i++) dark.add((Math.floor(y) - 2) * size + (x + i - 2));
        x += Number(a);
      }
    }
    return data.every((module, index) => Boolean(module) === dark.has(index)) && dark.size > 0;
  }

  it('When an admin creates a code for a location, then the API lists it and the page shows its scans; its PNG is the code of its URL', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id, 'Harbour kiosk');
    const agent = withSession(t.admin.token);
    const created = await post(agent, list(t), list(t), { label: 'Counter', location_id: location.id });
    expect(created.status, created.text.slice(0, 300)).toBe(303);
    const [code] = (await codesJson(t)).data;
    expect(code).toMatchObject({ label: 'Counter', location_id: location.id, active: true });
    const page = await agent.get(list(t));
    expectPage(page, 200);
    expect(page.text).toContain('0 scans in the last 30 days');
    expect(page.text).toContain('Harbour kiosk');
    const png = await agent.get(`${list(t)}/${code!.id}/code.png?download=1`).buffer(true);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toMatch(/^attachment; filename="?qr-\w+\.png/);
    const body = png.body as Buffer;
    expect(body.subarray(1, 4).toString()).toBe('PNG');
    expect(body.readUInt32BE(16)).toBe(1024); // IHDR width: large enough to print
    const svg = await agent.get(`${list(t)}/${code!.id}/code.svg`).buffer(true);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const text = (svg.body as Buffer).toString();
    expect(svgShowsCodeFor(text, code!.url)).toBe(true);
    expect(svgShowsCodeFor(text, `${code!.url}x`)).toBe(false);
    const print = await agent.get(`${list(t)}/${code!.id}/print`);
    expectPage(print, 200);
    expect(print.text).toContain(code!.url);
    expect(print.text).toContain(t.business.name);
  });

  it('When an admin deactivates a code, then the API reads it inactive; a member may not, nor create one', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id, { label: 'Door' });
    const member = withSession(t.member.token);
    const page = await member.get(list(t));
    expect(page.text).not.toContain('Create the QR code');
    expect(page.text).not.toContain('/deactivate"');
    expectPage(await post(member, list(t), `${list(t)}/${qr.id}/deactivate`, {}), 403);
    expectPage(await post(member, list(t), list(t), { label: 'Mine' }), 403);
    expect((await codesJson(t)).data).toHaveLength(1);
    const admin = withSession(t.admin.token);
    expect((await post(admin, list(t), `${list(t)}/${qr.id}/deactivate`, {})).status).toBe(303);
    expect((await codesJson(t)).data[0]!.active).toBe(false);
  });

  it("When the label is empty or the location another business's, then the form comes back marked; another business's codes are refused", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirPlace = await buildLocation(ctx.db, other.business.id, 'Elsewhere');
    const agent = withSession(t.ownerToken);
    const empty = await post(agent, list(t), list(t), { label: '  ' });
    expectPage(empty, 400);
    expect(empty.text).toMatch(/id="qr-label"[^>]*aria-invalid="true"/);
    const foreign = await post(agent, list(t), list(t), { label: 'Door', location_id: theirPlace.id });
    expectPage(foreign, 400);
    expect(foreign.text).toMatch(/id="qr-location"[^>]*aria-invalid="true"/);
    expect((await codesJson(t)).data).toHaveLength(0);
    const theirs = await buildQrCode(ctx.db, other.business.id);
    expectPage(await agent.get(`${list(other)}`), 403);
    expect((await agent.get(`${list(t)}/${theirs.id}/code.png`)).status).toBe(404);
    expectPage(await post(agent, list(t), `${list(t)}/${theirs.id}/deactivate`, {}), 404);
  });
});

describe('analytics', () => {
  const analytics = (t: Team) => `/app/b/${t.business.id}/analytics`;
  /** The table rows of one chart's section, as [label, ...numbers]. */
  function tableOf(html: string, id: string): string[][] {
    const section = html.slice(html.indexOf(`id="chart-${id}"`));
    const table = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'));
    return [...table.matchAll(/<tr><th scope="row">([^<]*)<\/th>(.*?)<\/tr>/g)].map(([, label, cells]) => [
      label!,
      ...[...cells!.matchAll(/<td>(\d+)<\/td>/g)].map((m) => m[1]!),
    ]);
  }

  it('When a member opens Analytics, then each chart is an SVG with its numbers in a table, as the overview counts them', async () => {
    const t = await buildTeam(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id, 'Harbour kiosk');
    await buildSuggestion(ctx.db, t.business.id, { sentiment: 'positive', status: 'completed' });
    await buildSuggestion(ctx.db, t.business.id, { sentiment: 'positive' });
    await buildSuggestion(ctx.db, t.business.id, { sentiment: 'negative', locationId: location.id });
    await buildIssue(ctx.db, t.business.id, { title: 'Broken tap' });
    const res = await withSession(t.member.token).get(analytics(t));
    expectPage(res, 200);
    expect(res.text.match(/<svg class="bars"[^>]*role="img"/g)).toHaveLength(3);
    expect(tableOf(res.text, 'sentiment')).toEqual([
      ['Positive', '2'],
      ['Neutral', '0'],
      ['Negative', '1'],
      ['Not scored', '0'],
    ]);
    expect(tableOf(res.text, 'funnel')).toEqual([
      ['Pending', '2'],
      ['Reviewing', '0'],
      ['In progress', '0'],
      ['Completed', '1'],
      ['Rejected', '0'],
    ]);
    const weeks = tableOf(res.text, 'over-time');
    expect(weeks).toHaveLength(12);
    expect(weeks.at(-1)!.slice(1)).toEqual(['3', '1']);
    expect(weeks.slice(0, -1).every((row) => row[1] === '0' && row[2] === '0')).toBe(true);
    // No page figures yet: the per-location chart says so rather than drawing nothing.
    expect(res.text).toMatch(/id="chart-locations"[\s\S]*?Nothing to show yet\./);
  });

  it("When someone opens another business's Analytics, then it is refused", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    expectPage(await withSession(t.ownerToken).get(analytics(other)), 403);
  });
});
