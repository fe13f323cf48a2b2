import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildSuggestion, buildTeam } from '../support/factories.js';
import { feedEvents } from '../support/feed.js';

/** POST /businesses/:id/suggestions/bulk: the inbox's Approve, Reject and bulk status, as an operation. */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const bulk = (t: Team, body: object, token = t.ownerToken) =>
  ctx.request().post(`/businesses/${t.business.id}/suggestions/bulk`).set(bearer(token)).send(body);
const read = async (t: Team, id: string) =>
  (await ctx.request().get(`/businesses/${t.business.id}/suggestions/${id}`).set(bearer(t.ownerToken))).body as {
    status: string;
    review_state: string;
  };
const awaiting = (t: Team, content: string) =>
  buildSuggestion(ctx.db, t.business.id, { content, visibility: 'public', reviewState: 'pending' });

describe('/businesses/:id/suggestions/bulk', () => {
  it('When an owner approves several awaiting review, then each is approved and each is its own suggestion.updated event', async () => {
    const t = await buildTeam(ctx.db);
    const a = await awaiting(t, 'Oat milk');
    const b = await awaiting(t, 'Later opening hours');
    const c = await awaiting(t, 'Left alone');
    const res = await bulk(t, { ids: [a.id, b.id], review: 'approve' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((s: { id: string; review_state: string }) => [s.id, s.review_state])).toEqual([
      [a.id, 'approved'],
      [b.id, 'approved'],
    ]);
    expect((await read(t, c.id)).review_state).toBe('pending');
    const events = await feedEvents(() => ctx.request(), t.read, 2, { query: { type: 'suggestion.updated' } });
    expect(events.map((e) => (e.data.object as { id: string }).id).sort()).toEqual([a.id, b.id].sort());
  });

  it("When one id is another business's or unknown, then it is a 404 naming it and none of them changes", async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const mine = await awaiting(t, 'Mine');
    const theirs = await awaiting(other, 'Theirs');
    const res = await bulk(t, { ids: [mine.id, theirs.id], review: 'reject' });
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([
      { field: 'ids.1', code: 'not_found', message: 'not a suggestion of this business' },
    ]);
    expect((await read(t, mine.id)).review_state).toBe('pending');
    expect(
      (
        await ctx
          .request()
          .get(`/businesses/${other.business.id}/suggestions/${theirs.id}`)
          .set(bearer(other.ownerToken))
      ).body.review_state,
    ).toBe('pending');
  });

  it('When one of them is not awaiting review, then it is a 409 and the transaction changes none', async () => {
    const t = await buildTeam(ctx.db);
    const a = await awaiting(t, 'Waiting');
    const done = await buildSuggestion(ctx.db, t.business.id, { content: 'Decided already' });
    const res = await bulk(t, { ids: [a.id, done.id], review: 'approve' });
    expect(res.status).toBe(409);
    // the one not awaiting review is named, by its place in `ids`, with a code a page words
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'ids.1', code: 'not_awaiting_review' })]);
    expect((await read(t, a.id)).review_state).toBe('pending');
  });

  it('When the body is empty, too long or changes nothing, then it is a 400 with the field and its code', async () => {
    const t = await buildTeam(ctx.db);
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'One' });
    const none = await bulk(t, { ids: [], status: 'completed' });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([expect.objectContaining({ field: 'ids', code: 'too_few' })]);
    const many = Array.from({ length: 101 }, () => a.id);
    const tooMany = await bulk(t, { ids: many, status: 'completed' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ field: 'ids', code: 'too_many' })]);
    const nothing = await bulk(t, { ids: [a.id] });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors).toEqual([expect.objectContaining({ code: 'nothing_to_change' })]);
    expect((await read(t, a.id)).status).toBe('pending');
  });

  it('When a member changes the status, then it is allowed; a review or a priority is a 403, as on the PATCH', async () => {
    const t = await buildTeam(ctx.db);
    const a = await awaiting(t, 'Waiting');
    expect((await bulk(t, { ids: [a.id], status: 'reviewing' }, t.member.token)).status).toBe(200);
    expect((await bulk(t, { ids: [a.id], review: 'approve' }, t.member.token)).status).toBe(403);
    expect((await bulk(t, { ids: [a.id], priority: 'high' }, t.member.token)).status).toBe(403);
    expect(await read(t, a.id)).toMatchObject({ status: 'reviewing', review_state: 'pending' });
    expect((await bulk(t, { ids: [a.id], review: 'approve' }, t.admin.token)).status).toBe(200);
  });
});
