import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildQrCode, buildSuggestion, buildTag, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
const asMember = (t: Team) => ({ Authorization: `Bearer ${t.member.token}` });

interface Event {
  type: string;
  data: { object: Record<string, unknown>; changes?: Record<string, { from: unknown; to: unknown }> };
}

/** The business's events of `type` once `count` are listed (PostgreSQL lists an event a little later). */
async function eventsOf(t: Team, type: string, count: number): Promise<Event[]> {
  let events: Event[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query({ limit: 100 });
    expect(res.status, res.text).toBe(200);
    events = (res.body.data as Event[]).filter((event) => event.type === type);
    if (events.length >= count) break;
    await sleep(20);
  }
  return events;
}

const tagsPath = (t: Team) => `/businesses/${t.business.id}/tags`;
const createTag = (t: Team, body: object) => ctx.request().post(tagsPath(t)).set(asOwner(t)).send(body);
const listV1 = (t: Team, query: string) => ctx.request().get(`/api/v1/suggestions?${query}`).set('X-API-Key', t.read);
const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((row) => row.id).sort();

describe('The business’s tags', () => {
  it('When an owner creates tags, then both families list them alphabetically with their colour and public flag', async () => {
    const t = await buildTeam(ctx.db);
    const created = await createTag(t, { name: '  terrace ', color: '#2F855A', public: true });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.location).toBe(`${tagsPath(t)}/${created.body.id}`);
    expect(created.body).toMatchObject({ name: 'terrace', color: '#2f855a', public: true });
    expect((await createTag(t, { name: 'Coffee' })).body).toMatchObject({ color: '#64748b', public: false });

    const v1 = await ctx.request().get('/api/v1/tags').set('X-API-Key', t.read);
    expect(v1.status).toBe(200);
    expect(v1.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Coffee', 'terrace']);
    const member = await ctx.request().get(tagsPath(t)).set(asMember(t));
    expect(member.body).toEqual(v1.body);
  });

  it('When a name is taken in another case, then creating or renaming to it is a 409, and another business may use it', async () => {
    const t = await buildTeam(ctx.db);
    await createTag(t, { name: 'Terrace' });
    const coffee = await createTag(t, { name: 'coffee' });
    const again = await createTag(t, { name: 'TERRACE' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', message: 'A tag named "TERRACE" already exists' });
    const rename = await ctx
      .request()
      .patch(`${tagsPath(t)}/${coffee.body.id}`)
      .set(asOwner(t))
      .send({ name: 'terrace' });
    expect(rename.status).toBe(409);
    const other = await buildTeam(ctx.db);
    expect((await createTag(other, { name: 'terrace' })).status).toBe(201);
  });

  it.each([
    ['a comma in the name', { name: 'tea, coffee' }, 'name'],
    ['a semicolon in the name', { name: 'tea;coffee' }, 'name'],
    ['a colour that is not #rrggbb', { name: 'tea', color: 'green' }, 'color'],
    ['a name over 50 characters', { name: 'x'.repeat(51) }, 'name'],
  ])('When the body has %s, then it is a 400 naming the field', async (_case, body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await createTag(t, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`${field}:`);
  });

  it('When a key or a member manages tags, then it is a 403; an unknown tag id is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const byKey = await ctx.request().post(tagsPath(t)).set('X-API-Key', t.write).send({ name: 'tea' });
    expect(byKey.status).toBe(403);
    expect((await ctx.request().post(tagsPath(t)).set(asMember(t)).send({ name: 'tea' })).status).toBe(403);
    const unknown = await ctx
      .request()
      .patch(`${tagsPath(t)}/0194b2b4-5e2a-7c19-9d3f-7a1c2e8b4f63`)
      .set(asOwner(t))
      .send({ public: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Tag not found');
  });
});

describe('Tags on suggestions', () => {
  it('When a suggestion is created with tags in any case, then reads and list items show the tags’ own spelling, alphabetically', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'Terrace' });
    await buildTag(ctx.db, t.business.id, { name: 'coffee' });
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Oat milk on the terrace', tags: ['terrace', 'COFFEE', 'Terrace'] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.tags).toEqual(['coffee', 'Terrace']);
    const read = await ctx.request().get(`/businesses/${t.business.id}/suggestions/${res.body.id}`).set(asMember(t));
    expect(read.body.tags).toEqual(['coffee', 'Terrace']);
    expect((await listV1(t, '')).body.data[0].tags).toEqual(['coffee', 'Terrace']);
    const [event] = await eventsOf(t, 'suggestion.created', 1);
    expect(event!.data.object.tags).toEqual(['coffee', 'Terrace']);
  });

  it('When a body names an unknown tag, then it is a 422 naming it and nothing is written', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Oat milk', tags: ['terrace', 'brunch'] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, code: 'UNKNOWN_TAG' });
    expect(res.body.message).toContain('"brunch"');
    expect(res.body.message).not.toContain('"terrace"');
    expect((await listV1(t, '')).body.total).toBe(0);

    const s = await buildSuggestion(ctx.db, t.business.id);
    const patch = await ctx
      .request()
      .patch(`/api/v1/suggestions/${s.id}`)
      .set('X-API-Key', t.write)
      .send({ tags: ['x'] });
    expect(patch.status).toBe(422);
    const add = await ctx
      .request()
      .post(`/businesses/${t.business.id}/suggestions/${s.id}/tags`)
      .set(asMember(t))
      .send({ remove: ['nope'] });
    expect(add.status).toBe(422);
    expect(add.body.message).toContain('"nope"');
  });

  it('When tags are set, added and removed, then each change is a suggestion.updated with changes.tags, and no change records nothing', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    await buildTag(ctx.db, t.business.id, { name: 'coffee' });
    await buildTag(ctx.db, t.business.id, { name: 'brunch' });
    const s = await buildSuggestion(ctx.db, t.business.id);
    const patch = await ctx
      .request()
      .patch(`/api/v1/suggestions/${s.id}`)
      .set('X-API-Key', t.write)
      .send({ tags: ['terrace', 'coffee'] });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.tags).toEqual(['coffee', 'terrace']);
    const changed = await ctx
      .request()
      .post(`/api/v1/suggestions/${s.id}/tags`)
      .set('X-API-Key', t.write)
      .send({ add: ['Brunch'], remove: ['coffee'] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.tags).toEqual(['brunch', 'terrace']);
    const same = await ctx
      .request()
      .post(`/businesses/${t.business.id}/suggestions/${s.id}/tags`)
      .set(asMember(t))
      .send({ add: ['terrace'] });
    expect(same.status).toBe(200);
    expect(same.body.tags).toEqual(['brunch', 'terrace']);
    expect(same.body.visibility).toBe('internal');

    const events = await eventsOf(t, 'suggestion.updated', 2);
    expect(events.map((event) => event.data.changes)).toEqual([
      { tags: { from: [], to: ['coffee', 'terrace'] } },
      { tags: { from: ['coffee', 'terrace'], to: ['brunch', 'terrace'] } },
    ]);
    expect(events[1]!.data.object.tags).toEqual(['brunch', 'terrace']);
    // the totals of one tag come from its counter, which followed every change
    expect((await listV1(t, 'tag=coffee')).body.total).toBe(0);
    expect((await listV1(t, 'tag=brunch')).body.total).toBe(1);
    expect((await listV1(t, 'tag=terrace')).body.total).toBe(1);
    // the member's no-op added no third event (the list holds every event of the business)
    expect(await eventsOf(t, 'suggestion.updated', 3)).toHaveLength(2);
  });

  it('When a member sends tags with a priority, then it is a 403; tags and status alone pass', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/businesses/${t.business.id}/suggestions/${s.id}`;
    const refused = await ctx
      .request()
      .patch(path)
      .set(asMember(t))
      .send({ tags: ['terrace'], priority: 'high' });
    expect(refused.status).toBe(403);
    const allowed = await ctx
      .request()
      .patch(path)
      .set(asMember(t))
      .send({ tags: ['terrace'], status: 'reviewing' });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toMatchObject({ tags: ['terrace'], status: 'reviewing' });
  });
});

describe('The tag filter', () => {
  async function tagged(t: Team) {
    for (const name of ['terrace', 'coffee', 'brunch']) await buildTag(ctx.db, t.business.id, { name });
    const make = (content: string, tags: string[]) =>
      buildSuggestion(ctx.db, t.business.id, { content, tags }).then((s) => s.id);
    return {
      both: await make('Oat milk for the coffee on the terrace', ['coffee', 'terrace']),
      terrace: await make('More shade on the terrace', ['terrace']),
      coffee: await make('Stronger coffee please', ['coffee']),
      none: await make('Friendly staff', []),
    };
  }

  it('When several tags are given, repeated or comma-separated and in any case, then only items with every one are listed', async () => {
    const t = await buildTeam(ctx.db);
    const ids = await tagged(t);
    expect(idsOf(await listV1(t, 'tag=terrace'))).toEqual([ids.both, ids.terrace].sort());
    const repeated = await listV1(t, 'tag=terrace&tag=COFFEE');
    expect(idsOf(repeated)).toEqual([ids.both]);
    expect(repeated.body.total).toBe(1);
    expect(idsOf(await listV1(t, 'tag=coffee,Terrace'))).toEqual([ids.both]);
    const business = await ctx.request().get(`/businesses/${t.business.id}/suggestions?tag=coffee`).set(asMember(t));
    expect(business.body.total).toBe(2);
    expect(idsOf(business)).toEqual([ids.both, ids.coffee].sort());
  });

  it('When a tag is unknown, combined with a known one, or with q, then the filters all apply', async () => {
    const t = await buildTeam(ctx.db);
    const ids = await tagged(t);
    const unknown = await listV1(t, 'tag=terrace&tag=garden');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ data: [], total: 0 });
    expect(idsOf(await listV1(t, 'tag=brunch'))).toEqual([]);
    expect(idsOf(await listV1(t, 'tag=terrace&q=shade'))).toEqual([ids.terrace]);
    expect(idsOf(await listV1(t, 'tag=coffee&q=shade'))).toEqual([]);
  });

  it.each([['tag='], ['tag=,'], [`tag=${'x'.repeat(51)}`]])(
    'When the filter is %s, then it is a 400',
    async (query) => {
      const t = await buildTeam(ctx.db);
      const res = await listV1(t, query);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Query failed: tag/);
    },
  );
});

describe('Exports', () => {
  it('When suggestions are exported, then JSON shows tags as an array and CSV as one ;-separated cell', async () => {
    const t = await buildTeam(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { tags: ['coffee', 'terrace'] });
    const json = await ctx.request().get('/api/v1/export/suggestions?format=json').set('X-API-Key', t.read);
    expect(json.status, json.text).toBe(200);
    expect(json.body.data[0].tags).toEqual(['coffee', 'terrace']);
    const csv = await ctx.request().get('/api/v1/export/suggestions?format=csv').set('X-API-Key', t.read);
    const [header, row] = csv.text.split('\r\n');
    const column = header!.split(',').indexOf('tags');
    expect(column).toBeGreaterThan(0);
    expect(row).toContain(',coffee;terrace,');
  });

  it('When issues are exported, then their tags are in the CSV too', async () => {
    const t = await buildTeam(ctx.db);
    await buildIssue(ctx.db, t.business.id, { tags: ['card reader'] });
    const csv = await ctx.request().get('/api/v1/export/issues?format=csv').set('X-API-Key', t.read);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text.split('\r\n')[1]).toContain(',card reader,');
  });
});

describe('Renaming and deleting a tag', () => {
  it('When a tag is renamed, then a list cached before shows the new name, the filter follows it, and no item event is published', async () => {
    const t = await buildTeam(ctx.db);
    const tag = await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    const s = await buildSuggestion(ctx.db, t.business.id, { tags: ['terrace'] });
    const issue = await buildIssue(ctx.db, t.business.id, { tags: ['terrace'] });
    // served twice: the second from the cache
    expect((await listV1(t, 'tag=terrace')).body.data[0].tags).toEqual(['terrace']);
    expect((await listV1(t, '')).body.data[0].tags).toEqual(['terrace']);
    expect((await listV1(t, '')).body.data[0].tags).toEqual(['terrace']);

    const res = await ctx
      .request()
      .patch(`${tagsPath(t)}/${tag.id}`)
      .set(asOwner(t))
      .send({ name: 'Garden' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('Garden');
    const list = await listV1(t, '');
    expect(list.body.data[0]).toMatchObject({ id: s.id, tags: ['Garden'] });
    expect(list.body.data[0].updated_at).toBe(s.updated_at.toISOString());
    // one tag alone is counted by its counter (migrations/0026_tags.sql): it followed the rename
    const garden = await listV1(t, 'tag=garden');
    expect(idsOf(garden)).toEqual([s.id]);
    expect(garden.body.total).toBe(1);
    expect((await listV1(t, 'tag=terrace')).body.total).toBe(0);
    const read = await ctx.request().get(`/api/v1/issues/${issue.id}`).set('X-API-Key', t.read);
    expect(read.body.tags).toEqual(['Garden']);
    expect(await eventsOf(t, 'suggestion.updated', 1)).toEqual([]);
  });

  it('When a tag is deleted, then it is off every item, a cached list shows it gone, and the name is free again', async () => {
    const t = await buildTeam(ctx.db);
    const tag = await buildTag(ctx.db, t.business.id, { name: 'terrace' });
    await buildTag(ctx.db, t.business.id, { name: 'coffee' });
    const s = await buildSuggestion(ctx.db, t.business.id, { tags: ['coffee', 'terrace'] });
    const issue = await buildIssue(ctx.db, t.business.id, { tags: ['terrace'] });
    const businessList = `/businesses/${t.business.id}/suggestions`;
    expect((await ctx.request().get(businessList).set(asOwner(t))).body.data[0].tags).toEqual(['coffee', 'terrace']);

    expect(
      (
        await ctx
          .request()
          .delete(`${tagsPath(t)}/${tag.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(204);
    expect((await ctx.request().get(businessList).set(asOwner(t))).body.data[0]).toMatchObject({
      id: s.id,
      tags: ['coffee'],
    });
    const issues = await ctx.request().get(`/businesses/${t.business.id}/issues`).set(asOwner(t));
    expect(issues.body.data[0]).toMatchObject({ id: issue.id, tags: [] });
    expect((await createTag(t, { name: 'Terrace' })).status).toBe(201);
    expect((await listV1(t, 'tag=terrace')).body.total).toBe(0);
    expect(await eventsOf(t, 'suggestion.updated', 1)).toEqual([]);
  });
});

describe('Tags on issues', () => {
  it('When an issue is created, changed and tagged in both families, then reads, filters and issue.updated say so', async () => {
    const t = await buildTeam(ctx.db);
    await buildTag(ctx.db, t.business.id, { name: 'card reader' });
    await buildTag(ctx.db, t.business.id, { name: 'urgent' });
    const created = await ctx
      .request()
      .post(`/businesses/${t.business.id}/issues`)
      .set(asOwner(t))
      .send({ title: 'Terminal declines taps', tags: ['Card Reader'] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.tags).toEqual(['card reader']);
    const missing = await ctx
      .request()
      .post(`/businesses/${t.business.id}/issues`)
      .set(asOwner(t))
      .send({ title: 'Broken chair', tags: ['furniture'] });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toContain('"furniture"');

    const added = await ctx
      .request()
      .post(`/api/v1/issues/${created.body.id}/tags`)
      .set('X-API-Key', t.write)
      .send({ add: ['urgent'] });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({ tags: ['card reader', 'urgent'], status: 'open' });
    const readKey = await ctx
      .request()
      .post(`/api/v1/issues/${created.body.id}/tags`)
      .set('X-API-Key', t.read)
      .send({ add: ['urgent'] });
    expect(readKey.status).toBe(403);
    const patched = await ctx
      .request()
      .patch(`/businesses/${t.business.id}/issues/${created.body.id}`)
      .set(asMember(t))
      .send({ tags: ['urgent'] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.tags).toEqual(['urgent']);

    const filtered = await ctx.request().get('/api/v1/issues?tag=urgent').set('X-API-Key', t.read);
    expect(filtered.body.total).toBe(1);
    const none = await ctx.request().get('/api/v1/issues?tag=urgent&tag=card%20reader').set('X-API-Key', t.read);
    expect(none.body.total).toBe(0);
    const events = await eventsOf(t, 'issue.updated', 2);
    expect(events.map((event) => event.data.changes)).toEqual([
      { tags: { from: ['card reader'], to: ['card reader', 'urgent'] } },
      { tags: { from: ['card reader', 'urgent'], to: ['urgent'] } },
    ]);
  });
});

describe('The public page', () => {
  it('When a suggestion has public and internal tags, then the page shows only the public ones, and follows a change of the flag', async () => {
    const t = await buildTeam(ctx.db);
    const garden = await buildTag(ctx.db, t.business.id, { name: 'garden', public: true });
    await buildTag(ctx.db, t.business.id, { name: 'escalate', public: false });
    await buildSuggestion(ctx.db, t.business.id, {
      visibility: 'public',
      reviewState: 'not_required',
      tags: ['escalate', 'garden'],
    });
    const qr = await buildQrCode(ctx.db, t.business.id);
    const json = await ctx.request().get(`/public/suggestions?code=${qr.code}`);
    expect(json.status, json.text).toBe(200);
    expect(json.body.data[0].tags).toEqual(['garden']);
    const html = await ctx.request().get(`/f/${qr.code}`);
    expect(html.text).toContain('<li class="tag">garden</li>');
    expect(html.text).not.toContain('escalate');

    await ctx
      .request()
      .patch(`${tagsPath(t)}/${garden.id}`)
      .set(asOwner(t))
      .send({ public: false });
    const after = await ctx.request().get(`/public/suggestions?code=${qr.code}`);
    expect(after.body.data[0].tags).toEqual([]);
  });
});
