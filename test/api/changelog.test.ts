import { setTimeout as sleep } from 'node:timers/promises';
import { parseAtomFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildChangelogEntry, buildQrCode, buildSuggestion, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
const asMember = (t: Team) => ({ Authorization: `Bearer ${t.member.token}` });
const base = (t: Team) => `/businesses/${t.business.id}/changelog`;
const write = (t: Team, body: object) => ctx.request().post(base(t)).set(asOwner(t)).send(body);
const publish = (t: Team, id: string, body: object = {}) =>
  ctx
    .request()
    .post(`${base(t)}/${id}/publish`)
    .set(asOwner(t))
    .send(body);

const HOSTILE =
  '# Hello\n\n<script>alert(1)</script>\n\n[click](javascript:alert(2)) and [site](https://example.com/) ' +
  '<img src=x onerror=alert(3)>';

/** No script, no event handler, no javascript: link: what any rendering of HOSTILE must hold to. */
function expectHarmless(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toMatch(/href="javascript:/i);
  expect(html).not.toMatch(/<[^>]+\son\w+=/i);
}

/** An Atom text construct's text, as the parser gives it (`{value, type}`). */
const textOf = (construct: { value?: string } | string | undefined): string =>
  typeof construct === 'string' ? construct : (construct?.value ?? '');

interface Event {
  type: string;
  data: { object: Record<string, unknown>; changes?: Record<string, { from: unknown; to: unknown }> };
}

async function eventsOf(t: Team, type: string, count: number): Promise<Event[]> {
  let events: Event[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query({ limit: 100 });
    events = (res.body.data as Event[]).filter((event) => event.type === type);
    if (events.length >= count) break;
    await sleep(20);
  }
  return events;
}

describe('The changelog', () => {
  it('When an owner writes an entry, then it is a draft with its Markdown rendered, and a member reads it but cannot write', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const res = await write(t, { title: ' Oat milk ', body: '## New\n\n- *oat* `milk`', suggestion_ids: [s.id, s.id] });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`${base(t)}/${res.body.id}`);
    expect(res.body).toMatchObject({ title: 'Oat milk', suggestion_ids: [s.id], published_at: null });
    expect(res.body.body_html).toBe('<h2>New</h2>\n<ul>\n<li><em>oat</em> <code>milk</code></li>\n</ul>\n');
    const read = await ctx
      .request()
      .get(`${base(t)}/${res.body.id}`)
      .set(asMember(t));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect((await ctx.request().post(base(t)).set(asMember(t)).send({ title: 'x' })).status).toBe(403);
    expect(
      (
        await ctx
          .request()
          .patch(`${base(t)}/${res.body.id}`)
          .set(asMember(t))
          .send({ title: 'x' })
      ).status,
    ).toBe(403);
    expect(
      (
        await ctx
          .request()
          .post(`${base(t)}/${res.body.id}/publish`)
          .set(asMember(t))
          .send({})
      ).status,
    ).toBe(403);
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${res.body.id}`)
          .set(asMember(t))
      ).status,
    ).toBe(403);
  });

  it('When the title or body is out of bounds, then it is a 400 naming the field', async () => {
    const t = await buildTeam(ctx.db);
    expect((await write(t, { title: '' })).body.errors[0].field).toBe('title');
    expect((await write(t, { title: 'x'.repeat(201) })).status).toBe(400);
    const long = await write(t, { title: 'ok', body: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ field: 'body', code: 'too_long' });
    expect((await write(t, { title: 'ok', body: 'x'.repeat(20_000) })).status).toBe(201);
    const many = Array.from({ length: 51 }, () => crypto.randomUUID());
    expect((await write(t, { title: 'ok', suggestion_ids: many })).status).toBe(400);
  });

  it("When an entry names another business's suggestion, then creating or changing it is a 422 naming the id", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await buildSuggestion(ctx.db, other.business.id);
    const ours = await buildSuggestion(ctx.db, t.business.id);
    const res = await write(t, { title: 'Oat milk', suggestion_ids: [ours.id, theirs.id] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_SUGGESTION' });
    expect(res.body.errors[0]).toMatchObject({ field: 'suggestion_ids', code: 'unknown_suggestion' });
    expect(res.body.message).toContain(theirs.id);
    const entry = await buildChangelogEntry(ctx.db, t.business.id);
    const patched = await ctx
      .request()
      .patch(`${base(t)}/${entry.id}`)
      .set(asOwner(t))
      .send({ suggestion_ids: [theirs.id] });
    expect(patched.status).toBe(422);
    const v1 = await ctx
      .request()
      .post('/api/v1/changelog')
      .set('X-API-Key', t.write)
      .send({ title: 'x', suggestion_ids: [theirs.id] });
    expect(v1.status).toBe(422);
  });

  it('When keys use /api/v1/changelog, then a read key cannot write, a write key can, and drafts are never shown', async () => {
    const t = await buildTeam(ctx.db);
    const refused = await ctx.request().post('/api/v1/changelog').set('X-API-Key', t.read).send({ title: 'No' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    const draft = await ctx.request().post('/api/v1/changelog').set('X-API-Key', t.write).send({ title: 'Draft' });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body.published_at).toBeNull();
    const live = await ctx
      .request()
      .post('/api/v1/changelog')
      .set('X-API-Key', t.write)
      .send({ title: 'Live', publish: true });
    expect(live.body.published_at).not.toBeNull();
    const older = await buildChangelogEntry(ctx.db, t.business.id, { title: 'Older', published: true });

    const list = await ctx.request().get('/api/v1/changelog').set('X-API-Key', t.read);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(list.body.data.map((e: { title: string }) => e.title).sort()).toEqual(['Live', 'Older']);
    expect((await ctx.request().get(`/api/v1/changelog/${draft.body.id}`).set('X-API-Key', t.read)).status).toBe(404);
    expect((await ctx.request().get(`/api/v1/changelog/${older.id}`).set('X-API-Key', t.read)).body.title).toBe(
      'Older',
    );
    const other = await buildTeam(ctx.db);
    expect((await ctx.request().get(`/api/v1/changelog/${older.id}`).set('X-API-Key', other.read)).status).toBe(404);
    const paged = await ctx.request().get('/api/v1/changelog?limit=1&page=2').set('X-API-Key', t.read);
    expect(paged.body).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(paged.body.data).toHaveLength(1);
    // the dashboard family lists the draft too, drafts first
    const all = await ctx.request().get(base(t)).set(asMember(t));
    expect(all.body.total).toBe(3);
    expect(all.body.data[0].title).toBe('Draft');
  });

  it('When an entry is published, changed and deleted, then the feed has changelog.published, .updated and .deleted', async () => {
    const t = await buildTeam(ctx.db);
    const entry = (await write(t, { title: 'Oat milk' })).body as { id: string };
    // a draft's change is no event
    await ctx
      .request()
      .patch(`${base(t)}/${entry.id}`)
      .set(asOwner(t))
      .send({ title: 'Oat milk!' });
    const published = await publish(t, entry.id);
    expect(published.status).toBe(200);
    expect((await publish(t, entry.id)).status).toBe(409);
    await ctx
      .request()
      .patch(`${base(t)}/${entry.id}`)
      .set(asOwner(t))
      .send({ title: 'Oat milk is here' });
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/${entry.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(204);
    const [pub] = await eventsOf(t, 'changelog.published', 1);
    expect(pub!.data.object).toMatchObject({ id: entry.id, title: 'Oat milk!' });
    const updated = await eventsOf(t, 'changelog.updated', 1);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.changes).toEqual({ title: { from: 'Oat milk!', to: 'Oat milk is here' } });
    const [deleted] = await eventsOf(t, 'changelog.deleted', 1);
    expect(deleted!.data.object).toMatchObject({ id: entry.id, title: 'Oat milk is here' });
    expect(
      (
        await ctx
          .request()
          .get(`${base(t)}/${entry.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(404);
  });

  it('When an entry is published with complete_suggestions, then its suggestions are completed as a status change', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { status: 'in_progress' });
    const b = await buildSuggestion(ctx.db, t.business.id, { status: 'pending' });
    const untouched = await buildSuggestion(ctx.db, t.business.id, { status: 'pending' });
    const entry = (await write(t, { title: 'Done', suggestion_ids: [a.id, b.id] })).body as { id: string };
    expect((await publish(t, entry.id, { complete_suggestions: true })).status).toBe(200);
    for (const s of [a, b]) {
      const read = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
      expect(read.body.status).toBe('completed');
    }
    const left = await ctx.request().get(`/api/v1/suggestions/${untouched.id}`).set('X-API-Key', t.read);
    expect(left.body.status).toBe('pending');
    const updates = await eventsOf(t, 'suggestion.updated', 2);
    expect(updates.map((event) => event.data.changes?.status?.to)).toEqual(['completed', 'completed']);
  });

  it('When a body carries a script and a javascript: link, then the API, the page and the feed show them harmless', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const created = await write(t, { title: 'Hostile <b>title</b>', body: HOSTILE, publish: true });
    expect(created.status).toBe(201);
    const html = created.body.body_html as string;
    expectHarmless(html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.com/"');

    const page = await ctx.request().get(`/f/${qr.code}/changelog`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Hostile &lt;b&gt;title&lt;/b&gt;');
    expectHarmless(page.text.replace(/<script src="\/assets\/[^"]+" defer><\/script>/, ''));
    const one = await ctx.request().get(`/f/${qr.code}/changelog/${created.body.id}`);
    expect(one.status).toBe(200);
    expectHarmless(one.text);
    expect(one.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const feed = await ctx.request().get(`/f/${qr.code}/changelog.atom`);
    expect(feed.status).toBe(200);
    const parsed = parseAtomFeed(feed.text);
    const content = textOf(parsed.entries?.[0]?.content);
    expectHarmless(content);
    expect(content).toContain('<a href="https://example.com/"');
  });

  it('When the page and its Atom feed are read, then they show published entries only, as a feed parser reads them', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const first = await buildChangelogEntry(ctx.db, t.business.id, { title: 'First', body: '*one*', published: true });
    const second = await buildChangelogEntry(ctx.db, t.business.id, { title: 'Second', published: true });
    const draft = await buildChangelogEntry(ctx.db, t.business.id, { title: 'Secret draft' });

    const feedRes = await ctx.request().get(`/f/${qr.code}/changelog.atom`);
    expect(feedRes.status).toBe(200);
    expect(feedRes.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const feed = parseAtomFeed(feedRes.text);
    const origin = 'http://localhost:3000';
    expect(feed.id).toBe(`${origin}/f/${qr.code}/changelog`);
    expect(textOf(feed.title)).toBe(`What’s new at ${t.business.name}`);
    expect(feed.updated).toBe(second.updated_at.toISOString());
    expect(feed.links?.find((link) => link.rel === 'self')?.href).toBe(`${origin}/f/${qr.code}/changelog.atom`);
    expect(feed.entries?.map((entry) => textOf(entry.title))).toEqual(['Second', 'First']);
    const entry = feed.entries![1]!;
    expect(entry.id).toBe(`urn:uuid:${first.id}`);
    expect(entry.published).toBe(first.published_at!.toISOString());
    expect(entry.updated).toBe(first.updated_at.toISOString());
    expect(entry.links?.[0]?.href).toBe(`${origin}/f/${qr.code}/changelog/${first.id}`);
    expect(entry.content && textOf(entry.content).trim()).toBe('<p><em>one</em></p>');
    expect(feedRes.text).not.toContain('Secret draft');

    const page = await ctx.request().get(`/f/${qr.code}/changelog`);
    expect(page.text).toContain('First');
    expect(page.text).not.toContain('Secret draft');
    expect((await ctx.request().get(`/f/${qr.code}/changelog/${draft.id}`)).status).toBe(404);
    expect((await ctx.request().get(`/f/${qr.code}/changelog/${second.id}`)).text).toContain('Second');
    const feedback = await ctx.request().get(`/f/${qr.code}`);
    expect(feedback.text).toContain(`href="/f/${qr.code}/changelog"`);
    // another business's entry is not on this page
    const other = await buildChangelogEntry(ctx.db, { title: 'Elsewhere', published: true });
    expect((await ctx.request().get(`/f/${qr.code}/changelog/${other.id}`)).status).toBe(404);
  });
});
