import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Event {
  type: string;
  data: { object: Record<string, unknown>; changes?: Record<string, { from: unknown; to: unknown }> };
}

/** The business's `suggestion.updated` events once `count` are listed (PostgreSQL lists an event a little later). */
async function updatedEvents(t: Team, count: number): Promise<Event[]> {
  let events: Event[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query({ limit: 100 });
    expect(res.status, res.text).toBe(200);
    events = (res.body.data as Event[]).filter((event) => event.type === 'suggestion.updated');
    if (events.length >= count) break;
    await sleep(20);
  }
  return events;
}

describe('PUT and DELETE /suggestions/{id}/reply', () => {
  it('When an admin replies, then both families read the reply signed with their name, and the event says what changed', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query('UPDATE users SET name = $2 WHERE id = $1', [t.admin.id, 'Rosa Admin']);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const path = `/businesses/${t.business.id}/suggestions/${s.id}/reply`;
    const res = await ctx
      .request()
      .put(path)
      .set('Authorization', `Bearer ${t.admin.token}`)
      .send({ content: '  Oat milk arrives on Monday.  ' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['content', 'author_name', 'created_at', 'updated_at']);
    expect(res.body).toMatchObject({ content: 'Oat milk arrives on Monday.', author_name: 'Rosa Admin' });
    expect(res.body.created_at).toMatch(ISO_MS);
    expect(res.body.updated_at).toBe(res.body.created_at);

    const v1 = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
    expect(v1.body.reply).toEqual(res.body);
    expect(v1.body.updated_at).toBe(res.body.updated_at);
    const dashboard = await ctx.request().get(`/businesses/${t.business.id}/suggestions/${s.id}`).set(asOwner(t));
    expect(dashboard.body.reply).toEqual(res.body);
    // list items stay as spec 4.2 has them
    const list = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(list.body.data[0]).not.toHaveProperty('reply');

    const [event] = await updatedEvents(t, 1);
    expect(event!.data.object.reply).toEqual(res.body);
    expect(event!.data.changes).toEqual({ reply: { from: null, to: res.body } });
  });

  it('When a write key changes the reply, then it is signed with the business name and keeps its created_at', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/api/v1/suggestions/${s.id}/reply`;
    const first = await ctx.request().put(path).set('X-API-Key', t.write).send({ content: 'Looking into it' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.author_name).toBe(t.business.name);
    await sleep(5);
    const again = await ctx.request().put(path).set('X-API-Key', t.write).send({ content: 'Looking into it' });
    expect(again.body).toEqual(first.body);
    const second = await ctx.request().put(path).set('X-API-Key', t.write).send({ content: 'Done on Monday' });
    expect(second.body.content).toBe('Done on Monday');
    expect(second.body.created_at).toBe(first.body.created_at);
    expect(second.body.updated_at > first.body.updated_at).toBe(true);

    const events = await updatedEvents(t, 2);
    // the same text again changed nothing and recorded nothing
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.data.changes!.reply!.to)).toEqual(
      expect.arrayContaining([first.body, second.body]),
    );
  });

  it('When the reply is removed, then reads show null, the event says so, and removing again is a 204', async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/businesses/${t.business.id}/suggestions/${s.id}/reply`;
    const put = await ctx.request().put(path).set(asOwner(t)).send({ content: 'Thanks!' });
    const removed = await ctx.request().delete(path).set(asOwner(t));
    expect(removed.status).toBe(204);
    const read = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
    expect(read.body.reply).toBeNull();
    expect((await ctx.request().delete(path).set(asOwner(t))).status).toBe(204);
    const events = await updatedEvents(t, 2);
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.data.changes)).toContainEqual({ reply: { from: put.body, to: null } });
  });

  it('When a member, a read key, an empty text or another business’s suggestion is used, then it is refused clearly', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/businesses/${t.business.id}/suggestions/${s.id}/reply`;
    const member = await ctx
      .request()
      .put(path)
      .set('Authorization', `Bearer ${t.member.token}`)
      .send({ content: 'Hi' });
    expect(member.status).toBe(403);
    const readKey = await ctx
      .request()
      .put(`/api/v1/suggestions/${s.id}/reply`)
      .set('X-API-Key', t.read)
      .send({ content: 'Hi' });
    expect(readKey.status).toBe(403);
    const empty = await ctx.request().put(path).set(asOwner(t)).send({ content: '   ' });
    expect(empty.status).toBe(400);
    const tooLong = await ctx
      .request()
      .put(path)
      .set(asOwner(t))
      .send({ content: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    const foreign = await ctx
      .request()
      .put(`/api/v1/suggestions/${s.id}/reply`)
      .set('X-API-Key', other.write)
      .send({ content: 'Hi' });
    expect(foreign.status).toBe(404);
    const read = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', t.read);
    expect(read.body.reply).toBeNull();
  });

  it('When a shown suggestion has a reply, then the public page’s JSON carries it, and an internal one’s is never shown', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const shown = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const internal = await buildSuggestion(ctx.db, t.business.id, { visibility: 'internal' });
    const put = (id: string) =>
      ctx.request().put(`/api/v1/suggestions/${id}/reply`).set('X-API-Key', t.write).send({ content: 'Thanks!' });
    // read once before the reply: the page's cached window must not outlive it
    expect((await ctx.request().get(`/public/suggestions?code=${qr.code}`)).body.data[0].reply).toBeNull();
    const reply = (await put(shown.id)).body as unknown;
    expect((await put(internal.id)).status).toBe(200);
    const page = await ctx.request().get(`/public/suggestions?code=${qr.code}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toEqual([expect.objectContaining({ id: shown.id, reply })]);
  });
});
