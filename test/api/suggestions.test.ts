import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildBusiness, buildLocation, buildTenant } from '../support/factories.js';
import { COMMENT_FIELDS, SPEC_SUGGESTION_LIST_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();

const LIST_FIELDS = SPEC_SUGGESTION_LIST_FIELDS;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function create(key: string, body: Record<string, unknown>) {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', key).send(body);
  expect(res.status).toBe(201);
  return res.body as Record<string, unknown> & { id: string; created_at: string; updated_at: string };
}

describe('POST /api/v1/suggestions', () => {
  it('When only content is given, then it is 201 with the defaults and computed sentiment', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: '  I love the new terrace, it is wonderful  ' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/v1/suggestions/${res.body.id}`);
    expect(Object.keys(res.body)).toEqual([
      ...LIST_FIELDS.slice(0, -2),
      'is_anonymous',
      'created_at',
      'updated_at',
      'reply',
      'follower_count',
      'merged_into',
    ]);
    expect(res.body).toMatchObject({
      content: 'I love the new terrace, it is wonderful',
      status: 'pending',
      priority: 'medium',
      sentiment: 'positive',
      customer_name: null,
      customer_email: null,
      upvote_count: 0,
      is_anonymous: true,
    });
    expect(res.body.sentiment_score).toBeGreaterThan(0);
    expect(res.body.sentiment_score).toBeLessThanOrEqual(1);
    expect(res.body.created_at).toMatch(ISO_MS);
    expect(res.body.updated_at).toMatch(ISO_MS);
  });

  it('When every field is given, then each is stored and read back', async () => {
    const t = await buildTenant(ctx.db);
    const location = await buildLocation(ctx.db, t.business.id);
    const created = await create(t.write, {
      content: 'The coffee is terrible and cold',
      visibility: 'public',
      status: 'reviewing',
      priority: 'critical',
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      location_id: location.id,
    });
    expect(created).toMatchObject({
      status: 'reviewing',
      priority: 'critical',
      sentiment: 'negative',
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      is_anonymous: false,
    });
    const { rows } = await ctx.db.pool.query(
      'SELECT visibility, review_state, location_id, source FROM suggestions WHERE id = $1',
      [created.id],
    );
    expect(rows[0]).toEqual({
      visibility: 'public',
      review_state: 'not_required',
      location_id: location.id,
      source: 'api',
    });
    const read = await ctx.request().get(`/api/v1/suggestions/${created.id}`).set('X-API-Key', t.read);
    expect(read.body).toEqual(created);
  });

  it('When only an email names the customer, then the suggestion is not anonymous', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'ok', customer_email: 'x@example.com' });
    expect(created.is_anonymous).toBe(false);
  });

  it('When a public suggestion is created on a business requiring approval, then it waits for review', async () => {
    const t = await buildTenant(ctx.db, { approvalRequired: true });
    const publicOne = await create(t.write, { content: 'public one', visibility: 'public' });
    const internalOne = await create(t.write, { content: 'internal one' });
    const { rows } = await ctx.db.pool.query(
      'SELECT id, review_state FROM suggestions WHERE id = ANY($1) ORDER BY content DESC',
      [[publicOne.id, internalOne.id]],
    );
    expect(rows).toEqual([
      { id: publicOne.id, review_state: 'pending' },
      { id: internalOne.id, review_state: 'not_required' },
    ]);
  });

  it('When content is exactly 2000 characters (astral ones counting once), then it is accepted', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: '😀'.repeat(2000) });
    expect([...(created.content as string)].length).toBe(2000);
  });

  it.each([
    ['missing content', {}, 'content'],
    ['empty content', { content: '' }, 'content'],
    ['blank content', { content: '   ' }, 'content'],
    ['content over 2000 characters', { content: 'a'.repeat(2001) }, 'content'],
    ['content not a string', { content: 42 }, 'content'],
    ['unknown visibility', { content: 'x', visibility: 'secret' }, 'visibility'],
    ['unknown status', { content: 'x', status: 'done' }, 'status'],
    ['unknown priority', { content: 'x', priority: 'urgent' }, 'priority'],
    ['invalid email', { content: 'x', customer_email: 'not-an-email' }, 'customer_email'],
    ['malformed location', { content: 'x', location_id: 'nope' }, 'location_id'],
    ['upvote_count set by the client', { content: 'x', upvote_count: 5 }, 'upvote_count'],
    ['id set by the client', { content: 'x', id: '0190c7f0-0000-7000-8000-000000000000' }, "'id'"],
    ['an unknown field', { content: 'x', colour: 'red' }, 'colour'],
  ])('When the body has %s, then it is a 400 naming the field and nothing is stored', async (_label, body, field) => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toContain(field);
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it("When location_id is another business's location, then it is a 400", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildBusiness(ctx.db);
    const foreign = await buildLocation(ctx.db, other.business.id);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'x', location_id: foreign.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('location_id');
  });

  it('When a suggestion is created, then one activity row is written with it', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'track me' });
    const { rows } = await ctx.db.pool.query(
      'SELECT type, entity_type, actor_api_key_id FROM activity WHERE business_id = $1 AND entity_id = $2',
      [t.business.id, created.id],
    );
    expect(rows).toEqual([{ type: 'suggestion.created', entity_type: 'suggestion', actor_api_key_id: t.writeKey.id }]);
  });
});

describe('GET /api/v1/suggestions/:id', () => {
  it('When the id is unknown, malformed or of another business, then it is a 404', async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const foreign = await create(other.write, { content: 'not yours' });
    for (const id of ['0190c7f0-0000-7000-8000-000000000000', 'not-a-uuid', foreign.id]) {
      const res = await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(JSON.stringify(res.body)).not.toContain('not yours');
    }
  });
});

describe('PATCH /api/v1/suggestions/:id', () => {
  it('When status and priority change, then it is 200 with the full object and updated_at moves', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'fix the door' });
    await sleep(5);
    const res = await ctx
      .request()
      .patch(`/api/v1/suggestions/${created.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'in_progress', priority: 'high' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'in_progress', priority: 'high', is_anonymous: true });
    expect(res.body.created_at).toBe(created.created_at);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    const status = await ctx
      .request()
      .patch(`/api/v1/suggestions/${created.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'completed' });
    expect(status.body).toMatchObject({ status: 'completed', priority: 'high' });
    const { rows } = await ctx.db.pool.query(
      `SELECT type, data FROM activity WHERE entity_id = $1 AND type = 'suggestion.updated' ORDER BY id`,
      [created.id],
    );
    expect(rows.map((r: { data: unknown }) => r.data)).toEqual([
      {
        from: { status: 'pending', priority: 'medium', visibility: 'internal', review_state: 'not_required' },
        to: { status: 'in_progress', priority: 'high', visibility: 'internal', review_state: 'not_required' },
      },
      {
        from: { status: 'in_progress', priority: 'high', visibility: 'internal', review_state: 'not_required' },
        to: { status: 'completed', priority: 'high', visibility: 'internal', review_state: 'not_required' },
      },
    ]);
  });

  it.each([
    ['an empty body', {}],
    ['content', { content: 'rewritten' }],
    ['an unknown status', { status: 'done' }],
    ['upvote_count', { status: 'completed', upvote_count: 3 }],
  ])('When the body has %s, then it is a 400 and nothing changes', async (_label, body) => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'stay' });
    const res = await ctx.request().patch(`/api/v1/suggestions/${created.id}`).set('X-API-Key', t.write).send(body);
    expect(res.status).toBe(400);
    const read = await ctx.request().get(`/api/v1/suggestions/${created.id}`).set('X-API-Key', t.read);
    expect(read.body).toEqual(created);
  });

  it("When the suggestion is another business's, then it is a 404 and it is unchanged", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const foreign = await create(other.write, { content: 'theirs' });
    const res = await ctx
      .request()
      .patch(`/api/v1/suggestions/${foreign.id}`)
      .set('X-API-Key', t.write)
      .send({ status: 'rejected' });
    expect(res.status).toBe(404);
    const read = await ctx.request().get(`/api/v1/suggestions/${foreign.id}`).set('X-API-Key', other.read);
    expect(read.body.status).toBe('pending');
  });

  it('When a read key patches, then it is a 403', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'stay' });
    const res = await ctx
      .request()
      .patch(`/api/v1/suggestions/${created.id}`)
      .set('X-API-Key', t.read)
      .send({ status: 'completed' });
    expect(res.status).toBe(403);
  });
});

describe('POST /api/v1/suggestions/:id/comments', () => {
  it('When a comment is added, then it is 201 with the spec 2.3 object, prefixed with the key name', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'needs a reply' });
    const res = await ctx
      .request()
      .post(`/api/v1/suggestions/${created.id}/comments`)
      .set('X-API-Key', t.write)
      .send({ content: '  Thanks, we are on it  ' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(COMMENT_FIELDS);
    expect(res.body).toMatchObject({
      entity_type: 'suggestion',
      entity_id: created.id,
      content: '[via API: Zapier sync] Thanks, we are on it',
      author_id: t.owner.id,
    });
    expect(res.body.created_at).toMatch(ISO_MS);
    const { rows } = await ctx.db.pool.query('SELECT type FROM activity WHERE entity_id = $1 ORDER BY id', [
      created.id,
    ]);
    expect(rows.map((r: { type: string }) => r.type)).toEqual(['suggestion.created', 'suggestion.commented']);
  });

  it.each([
    ['missing content', {}],
    ['empty content', { content: ' ' }],
    ['content over 5000 characters', { content: 'a'.repeat(5001) }],
    ['an unknown field', { content: 'x', author_id: 'me' }],
  ])('When the body has %s, then it is a 400', async (_label, body) => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'x' });
    const res = await ctx
      .request()
      .post(`/api/v1/suggestions/${created.id}/comments`)
      .set('X-API-Key', t.write)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/content|author_id/);
  });

  it("When the suggestion is unknown or another business's, then it is a 404 and nothing is stored", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const foreign = await create(other.write, { content: 'theirs' });
    for (const id of [foreign.id, '0190c7f0-0000-7000-8000-000000000000']) {
      const res = await ctx
        .request()
        .post(`/api/v1/suggestions/${id}/comments`)
        .set('X-API-Key', t.write)
        .send({ content: 'hi' });
      expect(res.status).toBe(404);
    }
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM comments WHERE entity_id = $1', [
      foreign.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('When a read key comments, then it is a 403', async () => {
    const t = await buildTenant(ctx.db);
    const created = await create(t.write, { content: 'x' });
    const res = await ctx
      .request()
      .post(`/api/v1/suggestions/${created.id}/comments`)
      .set('X-API-Key', t.read)
      .send({ content: 'hi' });
    expect(res.status).toBe(403);
  });
});
