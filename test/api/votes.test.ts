import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildSuggestion, buildTenant } from '../support/factories.js';
import { feedEvents } from '../support/feed.js';

const ctx = useTestApp();
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const families = [
  ['/api/v1', (_t: Tenant) => '/api/v1'],
  ['/businesses/{business_id}', (t: Tenant) => `/businesses/${t.business.id}`],
] as const;

async function countOf(t: Tenant, id: string): Promise<number> {
  const res = await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read);
  return res.body.upvote_count as number;
}

describe.each(families)('votes in %s', (_family, prefixOf) => {
  it('When a voter votes twice, then the first is 201, the second 200 with the same vote, and the count is 1', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `${prefixOf(t)}/suggestions/${s.id}/votes`;
    const first = await ctx
      .request()
      .post(path)
      .set('X-API-Key', t.write)
      .send({ voter: { email: 'Ana.Lima@example.com' }, name: 'Ana' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      suggestion_id: s.id,
      voter_type: 'email',
      email: 'ana.lima@example.com',
      external_id: null,
      name: 'Ana',
    });
    const again = await ctx
      .request()
      .post(path)
      .set('X-API-Key', t.write)
      .send({ voter: { email: 'ana.lima@EXAMPLE.com' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await countOf(t, s.id)).toBe(1);
    const { rows } = await ctx.db.pool.query(`SELECT type, data FROM activity WHERE entity_id = $1`, [s.id]);
    expect(rows).toEqual([
      // the vote's own row says which vote it is; the activity repeats none of it
      { type: 'suggestion.voted', data: null },
    ]);
    const events = await ctx.db.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE business_id = $1 AND type = 'suggestion.voted'`,
      [t.business.id],
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('When votes are listed and one is taken back, then the list and the count follow', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `${prefixOf(t)}/suggestions/${s.id}/votes`;
    const a = await ctx
      .request()
      .post(path)
      .set('X-API-Key', t.write)
      .send({ voter: { external_id: 'u-1' } });
    const b = await ctx
      .request()
      .post(path)
      .set('X-API-Key', t.write)
      .send({ voter: { email: 'b@example.com' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    const list = await ctx.request().get(path).set('X-API-Key', t.read);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.data.map((v: { id: string }) => v.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const removed = await ctx.request().delete(`${path}/${a.body.id}`).set('X-API-Key', t.write);
    expect(removed.status).toBe(204);
    expect(await countOf(t, s.id)).toBe(1);
    const gone = await ctx.request().delete(`${path}/${a.body.id}`).set('X-API-Key', t.write);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Vote not found');
    const malformed = await ctx.request().delete(`${path}/not-a-uuid`).set('X-API-Key', t.write);
    expect(malformed.status).toBe(404);
    const { rows } = await ctx.db.pool.query(`SELECT type FROM activity WHERE entity_id = $1 ORDER BY id`, [s.id]);
    expect(rows.map((r: { type: string }) => r.type)).toEqual([
      'suggestion.voted',
      'suggestion.voted',
      'suggestion.unvoted',
    ]);
  });

  it('When a read key votes, or a vote names another business’s suggestion, then it is 403 or 404', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildSuggestion(ctx.db);
    const mine = await buildSuggestion(ctx.db, t.business.id);
    const body = { voter: { external_id: 'x' } };
    const denied = await ctx
      .request()
      .post(`${prefixOf(t)}/suggestions/${mine.id}/votes`)
      .set('X-API-Key', t.read)
      .send(body);
    expect(denied.status).toBe(403);
    const foreign = await ctx
      .request()
      .post(`${prefixOf(t)}/suggestions/${other.id}/votes`)
      .set('X-API-Key', t.write)
      .send(body);
    expect(foreign.status).toBe(404);
    const list = await ctx
      .request()
      .get(`${prefixOf(t)}/suggestions/${other.id}/votes`)
      .set('X-API-Key', t.read);
    expect(list.status).toBe(404);
  });

  it('When a vote names no voter, two voters or a bad email, then it is a 400', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    for (const body of [
      {},
      { voter: {} },
      { voter: { email: 'a@example.com', external_id: 'x' } },
      { voter: { email: 'not an email' } },
      { voter: { external_id: '   ' } },
    ]) {
      const res = await ctx
        .request()
        .post(`${prefixOf(t)}/suggestions/${s.id}/votes`)
        .set('X-API-Key', t.write)
        .send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('votes in the event feed', () => {
  it('When a vote is added and taken back, then the feed has two suggestion.voted events with the count moving', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/api/v1/suggestions/${s.id}/votes`;
    const vote = await ctx
      .request()
      .post(path)
      .set('X-API-Key', t.write)
      .send({ voter: { external_id: 'u' } });
    await ctx.request().delete(`${path}/${vote.body.id}`).set('X-API-Key', t.write);
    const voted = await feedEvents(() => ctx.request(), t.read, 2, {
      keep: (event) => event.type === 'suggestion.voted',
    });
    expect(voted.map((event) => event.data.changes)).toEqual([
      { upvote_count: { from: 0, to: 1 } },
      { upvote_count: { from: 1, to: 0 } },
    ]);
  });
});

describe('the vote count under concurrency', () => {
  it('When 100 different voters vote at once, then the count is 100, and 0 once all are taken back at once', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/api/v1/suggestions/${s.id}/votes`;
    const votes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        ctx
          .request()
          .post(path)
          .set('X-API-Key', t.write)
          .send({ voter: { external_id: `user-${i}` } }),
      ),
    );
    expect(votes.map((res) => res.status)).toEqual(Array(100).fill(201));
    expect(await countOf(t, s.id)).toBe(100);
    const removed = await Promise.all(
      votes.map((res) => ctx.request().delete(`${path}/${res.body.id}`).set('X-API-Key', t.write)),
    );
    expect(removed.map((res) => res.status)).toEqual(Array(100).fill(204));
    expect(await countOf(t, s.id)).toBe(0);
  });

  it('When one voter votes 100 times at once, then exactly one vote is created and the count is 1', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const votes = await Promise.all(
      Array.from({ length: 100 }, () =>
        ctx
          .request()
          .post(`/api/v1/suggestions/${s.id}/votes`)
          .set('X-API-Key', t.write)
          .send({ voter: { email: 'same@example.com' } }),
      ),
    );
    expect(votes.filter((res) => res.status === 201)).toHaveLength(1);
    expect(votes.filter((res) => res.status === 200)).toHaveLength(99);
    expect(new Set(votes.map((res) => res.body.id)).size).toBe(1);
    expect(await countOf(t, s.id)).toBe(1);
  });

  it('When votes, repeated votes and withdrawals race on one suggestion, then the count and the activity follow the votes', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id);
    const path = `/api/v1/suggestions/${s.id}/votes`;
    const vote = (voter: string) =>
      ctx
        .request()
        .post(path)
        .set('X-API-Key', t.write)
        .send({ voter: { external_id: voter } });
    const range = Array.from({ length: 30 }, (_, i) => i);
    const earlier = await Promise.all(range.map((i) => vote(`old-${i}`)));
    const raced = await Promise.all([
      ...range.map((i) => vote(`new-${i}`)),
      ...earlier.map((res) => ctx.request().delete(`${path}/${res.body.id}`).set('X-API-Key', t.write)),
      ...range.map((i) => vote(`old-${i}`)),
    ]);
    expect(raced.filter((res) => res.status >= 300).map((res) => res.text)).toEqual([]);
    const { rows } = await ctx.db.pool.query<{ votes: number; voted: number; unvoted: number }>(
      `SELECT (SELECT count(*)::int FROM votes WHERE suggestion_id = $1) AS votes,
         (SELECT count(*)::int FROM activity WHERE entity_id = $1 AND type = 'suggestion.voted') AS voted,
         (SELECT count(*)::int FROM activity WHERE entity_id = $1 AND type = 'suggestion.unvoted') AS unvoted`,
      [s.id],
    );
    const { votes, voted, unvoted } = rows[0]!;
    expect(votes).toBeGreaterThanOrEqual(30);
    expect(await countOf(t, s.id)).toBe(votes);
    expect(voted - unvoted).toBe(votes);
  });
});

describe('the order by votes', () => {
  it('When votes and withdrawals race on several suggestions, then the list sorted by votes orders them by their exact counts', async () => {
    const t = await buildTenant(ctx.db);
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await buildSuggestion(ctx.db, t.business.id));
    // the newest suggestion gets the fewest votes: no order by creation or by id passes for this one
    const countOfIndex = (i: number) => 3 * (made.length - 1 - i);
    const vote = (id: string, voter: string) =>
      ctx
        .request()
        .post(`/api/v1/suggestions/${id}/votes`)
        .set('X-API-Key', t.write)
        .send({ voter: { external_id: voter } });
    const voted = made.filter((_, i) => countOfIndex(i) > 0);
    const first = await Promise.all(voted.map((s) => vote(s.id, 'first')));
    // each suggestion's votes at once, and its first vote taken back in the same race
    const raced = await Promise.all([
      ...made.flatMap((s, i) => Array.from({ length: countOfIndex(i) }, (_, j) => vote(s.id, `voter-${j}`))),
      ...first.map((res, i) =>
        ctx.request().delete(`/api/v1/suggestions/${voted[i]!.id}/votes/${res.body.id}`).set('X-API-Key', t.write),
      ),
    ]);
    expect(raced.filter((res) => res.status >= 300).map((res) => res.text)).toEqual([]);
    for (const order of ['desc', 'asc'] as const) {
      const res = await ctx
        .request()
        .get(`/api/v1/suggestions?sort=upvote_count&order=${order}&limit=10`)
        .set('X-API-Key', t.read);
      expect(res.status).toBe(200);
      const expected = made.map((s, i) => ({ id: s.id, upvote_count: countOfIndex(i) }));
      if (order === 'asc') expected.reverse();
      expect(
        res.body.data.map((s: { id: string; upvote_count: number }) => ({ id: s.id, upvote_count: s.upvote_count })),
      ).toEqual(expected);
    }
  });
});
