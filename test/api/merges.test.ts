import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildBusiness, buildSuggestion, buildTeam, buildTenant } from '../support/factories.js';
import { feedEvents } from '../support/feed.js';

const ctx = useTestApp();
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const families = [
  ['/api/v1', (_t: Tenant) => '/api/v1'],
  ['/businesses/{business_id}', (t: Tenant) => `/businesses/${t.business.id}`],
] as const;

const read = (t: Tenant, id: string) => ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read);
const vote = (t: Tenant, id: string, voter: string) =>
  ctx
    .request()
    .post(`/api/v1/suggestions/${id}/votes`)
    .set('X-API-Key', t.write)
    .send({ voter: { external_id: voter } });
const merge = (t: Tenant, prefix: string, id: string, sourceIds: string[]) =>
  ctx.request().post(`${prefix}/suggestions/${id}/merge`).set('X-API-Key', t.write).send({ source_ids: sourceIds });
const unmerge = (t: Tenant, prefix: string, id: string) =>
  ctx.request().post(`${prefix}/suggestions/${id}/unmerge`).set('X-API-Key', t.write);
const comment = (t: Tenant, id: string, content: string) =>
  ctx.request().post(`/api/v1/suggestions/${id}/comments`).set('X-API-Key', t.write).send({ content });

/** A confirmed follow, as the public page's confirmation link leaves it (its count moved with it). */
async function follow(t: Tenant, suggestionId: string, email: string) {
  await ctx.db.pool.query(
    `INSERT INTO suggestion_follows (id, business_id, suggestion_id, email, link_key, confirmed_at)
     VALUES (gen_random_uuid(), $1, $2, $3, '\\x00', now())`,
    [t.business.id, suggestionId, email],
  );
  await ctx.db.pool.query(`UPDATE suggestions SET follower_count = follower_count + 1 WHERE id = $1`, [suggestionId]);
}

/** The voters of a suggestion and of every suggestion merged into it, each once: what its count must be. */
async function distinctVoters(t: Tenant, id: string): Promise<number> {
  const { rows } = await ctx.db.pool.query<{ n: number }>(
    `SELECT count(DISTINCT v.voter_digest)::int AS n
     FROM votes v
     JOIN suggestions s ON s.id = v.suggestion_id
     WHERE v.business_id = $1
       AND ((s.id = $2 AND s.merged_into IS NULL) OR s.merged_into = $2)`,
    [t.business.id, id],
  );
  return rows[0]!.n;
}

describe.each(families)('merging in %s', (_family, prefixOf) => {
  it('When duplicates are merged, then votes, followers and comments move and the sources point at the target', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id, { content: 'Oat milk please' });
    const a = await buildSuggestion(ctx.db, t.business.id, { content: 'Please add oat milk', status: 'reviewing' });
    const b = await buildSuggestion(ctx.db, t.business.id, { content: 'oat milk!!' });
    for (const voter of ['both', 'target-only']) expect((await vote(t, target.id, voter)).status).toBe(201);
    for (const voter of ['both', 'a-only', 'a-and-b']) expect((await vote(t, a.id, voter)).status).toBe(201);
    for (const voter of ['a-and-b', 'b-only']) expect((await vote(t, b.id, voter)).status).toBe(201);
    await follow(t, target.id, 'shared@example.com');
    await follow(t, a.id, 'SHARED@example.com');
    await follow(t, b.id, 'b@example.com');
    const onA = await comment(t, a.id, 'Asked twice at the counter');

    const res = await merge(t, prefixOf(t), target.id, [a.id, b.id]);
    expect(res.status).toBe(200);
    // voters: both, target-only, a-only, a-and-b, b-only
    expect(res.body).toMatchObject({ id: target.id, upvote_count: 5, follower_count: 2, merged_into: null });

    const source = await read(t, a.id);
    expect(source.body).toMatchObject({ status: 'reviewing', merged_into: target.id, upvote_count: 0 });
    const dashboardRead = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions/${b.id}`)
      .set('X-API-Key', t.read);
    expect(dashboardRead.body.merged_into).toBe(target.id);

    const votes = await ctx.request().get(`/api/v1/suggestions/${target.id}/votes`).set('X-API-Key', t.read);
    expect(votes.body.total).toBe(5);
    expect(new Set(votes.body.data.map((v: { external_id: string }) => v.external_id))).toEqual(
      new Set(['both', 'target-only', 'a-only', 'a-and-b', 'b-only']),
    );
    const comments = await ctx.request().get(`/api/v1/suggestions/${target.id}/comments`).set('X-API-Key', t.read);
    expect(comments.body.data).toEqual([
      expect.objectContaining({ id: onA.body.id, entity_id: target.id, merged_from: a.id }),
    ]);
    const { rows: follows } = await ctx.db.pool.query(
      `SELECT suggestion_id, lower(email) AS email FROM suggestion_follows WHERE business_id = $1 ORDER BY 2`,
      [t.business.id],
    );
    expect(follows).toEqual([
      { suggestion_id: target.id, email: 'b@example.com' },
      { suggestion_id: target.id, email: 'shared@example.com' },
    ]);
  });

  it('When a voter counted through a merged suggestion votes on the target, then it is their vote again, counted once', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    const first = await vote(t, source.id, 'ana');
    expect((await merge(t, prefixOf(t), target.id, [source.id])).status).toBe(200);
    const again = await vote(t, target.id, 'ana');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await read(t, target.id)).body.upvote_count).toBe(1);

    const onMerged = await vote(t, source.id, 'bruno');
    expect(onMerged.status).toBe(409);
    expect(onMerged.body.code).toBe('SUGGESTION_MERGED');

    // taking the vote back from the target takes the voter off it, whichever suggestion they voted on
    const back = await ctx
      .request()
      .delete(`/api/v1/suggestions/${target.id}/votes/${first.body.id}`)
      .set('X-API-Key', t.write);
    expect(back.status).toBe(204);
    expect((await read(t, target.id)).body.upvote_count).toBe(0);
    expect(await distinctVoters(t, target.id)).toBe(0);
  });

  it('When a merged suggestion is unmerged, then it has its own votes and comments back and the target’s count goes back', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id, { status: 'in_progress' });
    for (const voter of ['both', 'target-only']) await vote(t, target.id, voter);
    for (const voter of ['both', 'source-only']) await vote(t, source.id, voter);
    const onSource = await comment(t, source.id, 'Written on the duplicate');
    await merge(t, prefixOf(t), target.id, [source.id]);
    const onTarget = await comment(t, target.id, 'Written after the merge');
    expect((await read(t, target.id)).body.upvote_count).toBe(3);

    const res = await unmerge(t, prefixOf(t), source.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: source.id, merged_into: null, status: 'in_progress', upvote_count: 2 });
    expect((await read(t, target.id)).body.upvote_count).toBe(2);
    const sourceComments = await ctx
      .request()
      .get(`/api/v1/suggestions/${source.id}/comments`)
      .set('X-API-Key', t.read);
    expect(sourceComments.body.data).toEqual([expect.objectContaining({ id: onSource.body.id, merged_from: null })]);
    const targetComments = await ctx
      .request()
      .get(`/api/v1/suggestions/${target.id}/comments`)
      .set('X-API-Key', t.read);
    expect(targetComments.body.data.map((c: { id: string }) => c.id)).toEqual([onTarget.body.id]);

    const again = await unmerge(t, prefixOf(t), source.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SUGGESTION_NOT_MERGED');
  });

  it('When a voter of both leaves the target while merged, then unmerging gives each suggestion exactly its remaining voters', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    await vote(t, target.id, 'both');
    await vote(t, source.id, 'both');
    await vote(t, source.id, 'source-only');
    await merge(t, prefixOf(t), target.id, [source.id]);
    expect((await read(t, target.id)).body.upvote_count).toBe(2);
    // a second source sharing the target's and the first source's voter
    const second = await buildSuggestion(ctx.db, t.business.id);
    await vote(t, second.id, 'source-only');
    await merge(t, prefixOf(t), target.id, [second.id]);
    expect((await read(t, target.id)).body.upvote_count).toBe(2);
    // the first source leaves: "source-only" is still counted for the target through the second
    await unmerge(t, prefixOf(t), source.id);
    expect((await read(t, target.id)).body.upvote_count).toBe(2);
    expect(await distinctVoters(t, target.id)).toBe(2);
    expect((await read(t, source.id)).body.upvote_count).toBe(2);
  });
});

describe('merging: what lists, totals and exports show', () => {
  it('When a suggestion is merged, then lists and their totals leave it out unless include_merged=true', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id, { status: 'reviewing' });
    await buildSuggestion(ctx.db, t.business.id, { status: 'reviewing' });
    await merge(t, '/api/v1', target.id, [source.id]);
    const ids = (body: { data: { id: string }[] }) => body.data.map((s) => s.id);

    const v1 = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(v1.body.total).toBe(2);
    expect(ids(v1.body)).not.toContain(source.id);
    const filtered = await ctx.request().get('/api/v1/suggestions?status=reviewing').set('X-API-Key', t.read);
    expect(filtered.body.total).toBe(1);
    const since = await ctx.request().get('/api/v1/suggestions?since=2000-01-01').set('X-API-Key', t.read);
    expect(since.body.total).toBe(2);

    const all = await ctx.request().get('/api/v1/suggestions?include_merged=true').set('X-API-Key', t.read);
    expect(all.body.total).toBe(3);
    expect(ids(all.body)).toContain(source.id);
    const allReviewing = await ctx
      .request()
      .get('/api/v1/suggestions?include_merged=true&status=reviewing')
      .set('X-API-Key', t.read);
    expect(allReviewing.body.total).toBe(2);
    const business = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions?include_merged=false`)
      .set('X-API-Key', t.read);
    expect(business.body.total).toBe(2);

    const bad = await ctx.request().get('/api/v1/suggestions?include_merged=yes').set('X-API-Key', t.read);
    expect(bad.status).toBe(400);

    // unmerged, it is listed and counted again
    await unmerge(t, '/api/v1', source.id);
    const back = await ctx.request().get('/api/v1/suggestions?status=reviewing').set('X-API-Key', t.read);
    expect(back.body.total).toBe(2);
  });

  it('When merged suggestions are exported, then each record says what it is merged into', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    await merge(t, '/api/v1', target.id, [source.id]);
    const json = await ctx.request().get('/api/v1/export/suggestions?include_merged=true').set('X-API-Key', t.read);
    expect(json.status).toBe(200);
    const byId = new Map(json.body.data.map((s: { id: string; merged_into: string | null }) => [s.id, s.merged_into]));
    expect(byId).toEqual(
      new Map([
        [target.id, null],
        [source.id, target.id],
      ]),
    );
    const hidden = await ctx.request().get('/api/v1/export/suggestions').set('X-API-Key', t.read);
    expect(hidden.body.data.map((s: { id: string }) => s.id)).toEqual([target.id]);
    const csv = await ctx
      .request()
      .get('/api/v1/export/suggestions?include_merged=true&format=csv')
      .set('X-API-Key', t.read);
    const [header, ...lines] = csv.text.trim().split(/\r?\n/);
    expect(header!.split(',').at(-1)).toBe('merged_into');
    expect(lines.find((line) => line.startsWith(source.id))!.endsWith(target.id)).toBe(true);
  });
});

describe('merging: refusals', () => {
  it('When a merge names the target, a merged suggestion or another business’s, then it is refused and nothing moves', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildBusiness(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    const foreign = await buildSuggestion(ctx.db, other.business.id);
    await vote(t, source.id, 'ana');

    const itself = await merge(t, '/api/v1', target.id, [target.id]);
    expect(itself.status).toBe(400);
    expect(itself.body.message).toContain('itself');
    expect((await merge(t, '/api/v1', target.id, [source.id, source.id])).status).toBe(400);
    expect((await merge(t, '/api/v1', target.id, [])).status).toBe(400);
    const theirs = await merge(t, '/api/v1', target.id, [source.id, foreign.id]);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Suggestion not found');
    expect((await merge(t, '/api/v1', foreign.id, [source.id])).status).toBe(404);
    expect((await read(t, source.id)).body).toMatchObject({ merged_into: null, upvote_count: 1 });

    expect((await merge(t, '/api/v1', target.id, [source.id])).status).toBe(200);
    const intoMerged = await merge(t, '/api/v1', source.id, [(await buildSuggestion(ctx.db, t.business.id)).id]);
    expect(intoMerged.status).toBe(409);
    expect(intoMerged.body.code).toBe('SUGGESTION_MERGED');
    const elsewhere = await merge(t, '/api/v1', (await buildSuggestion(ctx.db, t.business.id)).id, [source.id]);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.code).toBe('SUGGESTION_MERGED');
    const withMerged = await merge(t, '/api/v1', (await buildSuggestion(ctx.db, t.business.id)).id, [target.id]);
    expect(withMerged.status).toBe(409);
    expect(withMerged.body.code).toBe('SUGGESTION_HAS_MERGED');
    expect((await read(t, target.id)).body).toMatchObject({ merged_into: null, upvote_count: 1 });
  });

  it('When a read key or another business’s key merges, then it is 403 or 404', async () => {
    const t = await buildTenant(ctx.db);
    const stranger = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    const byReadKey = await ctx
      .request()
      .post(`/api/v1/suggestions/${target.id}/merge`)
      .set('X-API-Key', t.read)
      .send({ source_ids: [source.id] });
    expect(byReadKey.status).toBe(403);
    expect((await merge(stranger, '/api/v1', target.id, [source.id])).status).toBe(404);
    expect((await unmerge(stranger, '/api/v1', source.id)).status).toBe(404);
    const similar = await ctx.request().get(`/api/v1/suggestions/${target.id}/similar`).set('X-API-Key', stranger.read);
    expect(similar.status).toBe(404);
  });

  it('When a member merges and unmerges from the dashboard family, then it is allowed like a status change', async () => {
    const team = await buildTeam(ctx.db);
    const target = await buildSuggestion(ctx.db, team.business.id);
    const source = await buildSuggestion(ctx.db, team.business.id);
    const base = `/businesses/${team.business.id}/suggestions`;
    const merged = await ctx
      .request()
      .post(`${base}/${target.id}/merge`)
      .set('Authorization', `Bearer ${team.member.token}`)
      .send({ source_ids: [source.id] });
    expect(merged.status).toBe(200);
    expect(merged.body.visibility).toBe('internal');
    const back = await ctx
      .request()
      .post(`${base}/${source.id}/unmerge`)
      .set('Authorization', `Bearer ${team.member.token}`);
    expect(back.status).toBe(200);
  });
});

describe('merging: likely duplicates', () => {
  it('When a suggestion has look-alikes, then similar lists the closest five of its business, not merged, most alike first', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildBusiness(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Please add oat milk for the flat whites' });
    const same = await buildSuggestion(ctx.db, t.business.id, { content: 'Please add oat milk for the flat whites!' });
    const close = await buildSuggestion(ctx.db, t.business.id, { content: 'Add oat milk for flat whites please' });
    const merged = await buildSuggestion(ctx.db, t.business.id, { content: 'Please add oat milk for the flat white' });
    await merge(t, '/api/v1', same.id, [merged.id]);
    await buildSuggestion(ctx.db, t.business.id, { content: 'The parking is always full at noon' });
    await buildSuggestion(ctx.db, other.business.id, { content: 'Please add oat milk for the flat whites' });
    for (let i = 0; i < 5; i++)
      await buildSuggestion(ctx.db, t.business.id, {
        content: `Oat milk for flat whites and lattes ${'x'.repeat(i + 1)}`,
      });

    for (const prefix of ['/api/v1', `/businesses/${t.business.id}`]) {
      const res = await ctx.request().get(`${prefix}/suggestions/${s.id}/similar`).set('X-API-Key', t.read);
      expect(res.status).toBe(200);
      const ids = res.body.data.map((row: { id: string }) => row.id);
      expect(ids).toHaveLength(5);
      expect(ids.slice(0, 2)).toEqual([same.id, close.id]);
      expect(ids).not.toContain(merged.id);
      expect(ids).not.toContain(s.id);
      const scores = res.body.data.map((row: { similarity: number }) => row.similarity);
      expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
      expect(scores[0]).toBeGreaterThan(0.9);
    }
  });

  it('When a short paraphrase shares the subject word, then it is offered, and one sharing only the phrasing is not', async () => {
    const t = await buildTenant(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'More vegan options' });
    const vegan = await buildSuggestion(ctx.db, t.business.id, { content: 'Vegan food please' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'More payment options' });
    await buildSuggestion(ctx.db, t.business.id, { content: 'More parking spaces' });

    for (const prefix of ['/api/v1', `/businesses/${t.business.id}`]) {
      const res = await ctx.request().get(`${prefix}/suggestions/${s.id}/similar`).set('X-API-Key', t.read);
      expect(res.status).toBe(200);
      expect(res.body.data.map((row: { id: string; similarity: number }) => [row.id, row.similarity])).toEqual([
        [vegan.id, 1],
      ]);
    }
  });
});

describe('merging: events', () => {
  it('When suggestions are merged and unmerged, then the feed has suggestion.merged, suggestion.unmerged and the target’s counts', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    await vote(t, source.id, 'ana');
    await merge(t, '/api/v1', target.id, [source.id]);
    await unmerge(t, '/api/v1', source.id);
    const types = ['suggestion.merged', 'suggestion.unmerged', 'suggestion.updated'];
    const events = await feedEvents(() => ctx.request(), t.read, 4, { keep: (event) => types.includes(event.type) });
    expect(events.map((event) => event.type)).toEqual([
      'suggestion.merged',
      'suggestion.updated',
      'suggestion.unmerged',
      'suggestion.updated',
    ]);
    expect(events[0]!.data).toEqual({
      object: expect.objectContaining({ id: source.id, merged_into: target.id, upvote_count: 0 }),
      changes: { merged_into: { from: null, to: target.id }, upvote_count: { from: 1, to: 0 } },
    });
    expect(events[1]!.data).toEqual({
      object: expect.objectContaining({ id: target.id, merged_into: null, upvote_count: 1 }),
      changes: { upvote_count: { from: 0, to: 1 } },
    });
    expect(events[2]!.data).toEqual({
      object: expect.objectContaining({ id: source.id, merged_into: null, upvote_count: 1 }),
      changes: { merged_into: { from: target.id, to: null }, upvote_count: { from: 0, to: 1 } },
    });
    expect(events[3]!.data.changes).toEqual({ upvote_count: { from: 1, to: 0 } });
    // the event's object is the dashboard read of the suggestion at that moment
    const { rows } = await ctx.db.pool.query(
      `SELECT type, data FROM activity WHERE entity_id = $1 AND type LIKE 'suggestion.%merged' ORDER BY id`,
      [source.id],
    );
    expect(rows).toEqual([
      { type: 'suggestion.merged', data: { target_id: target.id } },
      { type: 'suggestion.unmerged', data: { target_id: target.id } },
    ]);
  });
});

describe('merging: the vote count under concurrency', () => {
  it('When votes, unvotes, merges and unmerges race, then every count equals its distinct voters', async () => {
    const t = await buildTenant(ctx.db);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const sources = [await buildSuggestion(ctx.db, t.business.id), await buildSuggestion(ctx.db, t.business.id)];
    const all = [target, ...sources];
    const voters = Array.from({ length: 8 }, (_, i) => `voter-${i}`);
    for (let round = 0; round < 4; round++) {
      const requests: Promise<unknown>[] = [];
      for (const [i, voter] of voters.entries()) {
        const on = all[(i + round) % all.length]!;
        requests.push(vote(t, on.id, voter));
        requests.push(vote(t, target.id, voter));
        if (i % 3 === round % 3) {
          requests.push(ctx.request().get(`/api/v1/suggestions/${on.id}/votes`).set('X-API-Key', t.read));
        }
      }
      requests.push(
        merge(
          t,
          '/api/v1',
          target.id,
          sources.map((s) => s.id),
        ),
      );
      requests.push(unmerge(t, '/api/v1', sources[round % 2]!.id));
      const responses = (await Promise.all(requests)) as { status: number }[];
      // every answer is a decided one: a vote, a refusal of a merged suggestion, or a merge's conflict
      for (const res of responses) expect([200, 201, 409]).toContain(res.status);
      // and some voters take their vote back from the target, racing with another merge
      const withdrawals = voters
        .filter((_, i) => i % 2 === round % 2)
        .map(async (voter) => {
          const list = await ctx
            .request()
            .get(`/api/v1/suggestions/${target.id}/votes?limit=100`)
            .set('X-API-Key', t.read);
          const mine = (list.body.data as { id: string; external_id: string }[]).find((v) => v.external_id === voter);
          if (!mine) return { status: 204 };
          return ctx.request().delete(`/api/v1/suggestions/${target.id}/votes/${mine.id}`).set('X-API-Key', t.write);
        });
      const settled = await Promise.all([...withdrawals, unmerge(t, '/api/v1', sources[(round + 1) % 2]!.id)]);
      for (const res of settled) expect([204, 200, 404, 409]).toContain(res.status);
      for (const s of all) {
        const { upvote_count: count, merged_into: into } = (await read(t, s.id)).body;
        expect(count).toBe(into ? 0 : await distinctVoters(t, s.id));
      }
    }
  });
});

describe('Merging tagged suggestions', () => {
  it('When a tagged suggestion is merged and unmerged, then the tag filter’s total follows it as the list does', async () => {
    const t = await buildTeam(ctx.db);
    await ctx
      .request()
      .post(`/businesses/${t.business.id}/tags`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ name: 'terrace', color: '#2f855a' })
      .expect(201);
    const target = await buildSuggestion(ctx.db, t.business.id);
    const source = await buildSuggestion(ctx.db, t.business.id);
    for (const id of [target.id, source.id]) {
      await ctx
        .request()
        .patch(`/api/v1/suggestions/${id}`)
        .set('X-API-Key', t.write)
        .send({ tags: ['terrace'] })
        .expect(200);
    }
    const tagged = async (query = '') => {
      const res = await ctx.request().get(`/api/v1/suggestions?tag=terrace${query}`).set('X-API-Key', t.read);
      expect(res.status).toBe(200);
      return { total: res.body.total as number, listed: (res.body.data as unknown[]).length };
    };
    expect(await tagged()).toEqual({ total: 2, listed: 2 });
    expect((await merge(t, '/api/v1', target.id, [source.id])).status).toBe(200);
    // one tag alone is counted by its counter; with merged ones, on the rows
    expect(await tagged()).toEqual({ total: 1, listed: 1 });
    expect(await tagged('&include_merged=true')).toEqual({ total: 2, listed: 2 });
    expect((await unmerge(t, '/api/v1', source.id)).status).toBe(200);
    expect(await tagged()).toEqual({ total: 2, listed: 2 });
  });
});
