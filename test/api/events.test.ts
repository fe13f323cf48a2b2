import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/outbox/outbox.service.js';
import { withTransaction } from '../../src/db/database.js';
import { qrCodeSchema } from '../../src/qr-codes/qr-code.responses.js';
import { exampleOf } from '../../src/shared/responses.js';
import { fieldSqlOf } from '../../src/db/columns.js';
import { SUGGESTION_COLUMN_MAP } from '../../src/suggestions/suggestion.columns.js';
import { SUGGESTION_OBJECT_SQL, SUGGESTION_SHAPE_1_KEYS } from '../../src/suggestions/suggestion.repository.js';
import { useTestApp } from '../support/app.js';
import { testMode } from '../support/database.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

interface Event {
  id: string;
  type: string;
  created_at: string;
  business_id: string;
  data: { object: Record<string, unknown> & { id: string }; changes?: Record<string, { from: unknown; to: unknown }> };
}
interface Feed {
  data: Event[];
  next_cursor: string | null;
  has_more: boolean;
}

const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
const biz = (t: Team) => `/businesses/${t.business.id}`;

async function readFeed(t: Team, query: Record<string, string | number> = {}): Promise<Feed> {
  const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query(query);
  expect(res.status, res.text).toBe(200);
  return res.body as Feed;
}

/** Every event of the business from the start (bounded: a business in a test has few). */
async function readAll(t: Team): Promise<Event[]> {
  const events: Event[] = [];
  let after: string | null = null;
  for (let page = 0; page < 20; page++) {
    const feed = await readFeed(t, after ? { after, limit: 100 } : { limit: 100 });
    events.push(...feed.data);
    after = feed.next_cursor;
    if (!feed.has_more) break;
  }
  return events;
}

/**
 * The business's events once `count` are listed. On PostgreSQL the feed lists an event only once every
 * transaction older than it has ended, on the whole server (other test files' included): read again,
 * a bounded number of times, until they are.
 */
async function allEvents(t: Team, count: number): Promise<Event[]> {
  let events = await readAll(t);
  for (let i = 0; i < 100 && events.length < count; i++) {
    await sleep(20);
    events = await readAll(t);
  }
  return events;
}

async function send(method: 'post' | 'patch' | 'delete', path: string, headers: Record<string, string>, body?: object) {
  const res = await ctx.request()[method](path).set(headers).send(body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body as Record<string, unknown> & { id: string };
}

async function readOne(t: Team, path: string) {
  const res = await ctx.request().get(path).set(asOwner(t));
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('Events: one per change, with the resource as its read returns it', () => {
  it('When suggestions change through /api/v1, then created and updated events carry the object and changes', async () => {
    const t = await buildTeam(ctx.db);
    const key = { 'X-API-Key': t.write };
    const created = await send('post', '/api/v1/suggestions', key, { content: 'Oat milk please' });
    await send('patch', `/api/v1/suggestions/${created.id}`, key, { status: 'reviewing', priority: 'high' });
    const events = await allEvents(t, 2);
    expect(events.map((e) => e.type)).toEqual(['suggestion.created', 'suggestion.updated']);
    const now = await readOne(t, `${biz(t)}/suggestions/${created.id}`);
    expect(events[1]!.data.object).toEqual(now);
    expect(events[1]!.data.changes).toEqual({
      status: { from: 'pending', to: 'reviewing' },
      priority: { from: 'medium', to: 'high' },
    });
    expect(events[0]!.data.object).toMatchObject({ id: created.id, status: 'pending', priority: 'medium' });
    expect(events[0]!.data.changes).toBeUndefined();
    expect(events[0]!.business_id).toBe(t.business.id);
  });

  it('When a dashboard user publishes a suggestion, then the event says visibility and review changed', async () => {
    const t = await buildTeam(ctx.db);
    const created = await send('post', `${biz(t)}/suggestions`, asOwner(t), { content: 'A terrace heater' });
    await send('patch', `${biz(t)}/suggestions/${created.id}`, asOwner(t), { visibility: 'public' });
    const [, updated] = await allEvents(t, 2);
    expect(updated!.type).toBe('suggestion.updated');
    expect(updated!.data.changes).toMatchObject({ visibility: { from: 'internal', to: 'public' } });
    expect(updated!.data.object).toEqual(await readOne(t, `${biz(t)}/suggestions/${created.id}`));
  });

  it('When a suggestion with every field set is created, voted for and unvoted, then each event object is its read', async () => {
    // The statement that writes a suggestion also writes its event, with the object presented in SQL
    // (SUGGESTION_OBJECT_SQL): every field of the read must come out the same, nulls and numbers included.
    const t = await buildTeam(ctx.db);
    await send('patch', biz(t), asOwner(t), { approval_required: true });
    const location = await send('post', `${biz(t)}/locations`, asOwner(t), { name: 'Terrace' });
    const created = await send('post', `${biz(t)}/suggestions`, asOwner(t), {
      content: 'Lovely staff, but the awful queue ruins a great coffee',
      customer_name: 'Zoë',
      customer_email: 'zoe@example.com',
      visibility: 'public',
      location_id: location.id,
      priority: 'high',
    });
    const afterCreate = await readOne(t, `${biz(t)}/suggestions/${created.id}`);
    expect(afterCreate).toMatchObject({ review_state: 'pending', location_id: location.id, is_anonymous: false });
    expect(afterCreate.sentiment_score).not.toBe(0);
    const vote = await send(
      'post',
      `/api/v1/suggestions/${created.id}/votes`,
      { 'X-API-Key': t.write },
      {
        voter: { external_id: 'u-1' },
      },
    );
    const afterVote = await readOne(t, `${biz(t)}/suggestions/${created.id}`);
    await send('delete', `/api/v1/suggestions/${created.id}/votes/${vote.id}`, { 'X-API-Key': t.write });
    const afterUnvote = await readOne(t, `${biz(t)}/suggestions/${created.id}`);
    const internal = await send('post', '/api/v1/suggestions', { 'X-API-Key': t.write }, { content: 'Meh' });
    const events = await allEvents(t, 4);
    expect(events.map((e) => e.type)).toEqual([
      'suggestion.created',
      'suggestion.voted',
      'suggestion.voted',
      'suggestion.created',
    ]);
    expect(events[0]!.data).toEqual({ object: afterCreate });
    expect(events[1]!.data).toEqual({ object: afterVote, changes: { upvote_count: { from: 0, to: 1 } } });
    expect(events[2]!.data).toEqual({ object: afterUnvote, changes: { upvote_count: { from: 1, to: 0 } } });
    expect(events[3]!.data.object).toEqual(await readOne(t, `${biz(t)}/suggestions/${internal.id}`));
    expect(events[3]!.data.object).toMatchObject({
      customer_name: null,
      location_id: null,
      review_state: 'not_required',
    });
  });

  it('When suggestion events are recorded, then their rows hold the object as values alone, and the feed and webhooks serve the whole object as before', async () => {
    // 0068_event_object_values.sql: the row keeps the object's values in shape 1's key order, and
    // event_data() rebuilds it. Compared as text with the object built the way events stored it before.
    const t = await buildTeam(ctx.db);
    const pool = ctx.db.pool;
    await pool.query(
      `INSERT INTO webhook_endpoints (id, business_id, url, events, secret)
       VALUES (gen_random_uuid(), $1, 'https://hooks.example.com/in', '{*}', 'whsec_test')`,
      [t.business.id],
    );
    const created = await send(
      'post',
      '/api/v1/suggestions',
      { 'X-API-Key': t.write },
      { content: 'The terrace needs more shade', customer_name: 'Zoë' },
    );
    const vote = (voter: string) =>
      send(
        'post',
        `/api/v1/suggestions/${created.id}/votes`,
        { 'X-API-Key': t.write },
        { voter: { external_id: voter } },
      );
    await vote('u-1');
    const second = await vote('u-2');
    await send('delete', `/api/v1/suggestions/${created.id}/votes/${second.id}`, { 'X-API-Key': t.write });
    const events = await allEvents(t, 4);
    // a vote taken back is a `suggestion.voted` event too, its count one lower
    expect(events.map((e) => e.type)).toEqual([
      'suggestion.created',
      'suggestion.voted',
      'suggestion.voted',
      'suggestion.voted',
    ]);

    const { rows: stored } = await pool.query<{ data: unknown; object_shape: number; n: number }>(
      `SELECT data, object_shape, jsonb_array_length(object_values) AS n
       FROM events
       WHERE business_id = $1 AND type IS NOT NULL
       ORDER BY seq`,
      [t.business.id],
    );
    // no `data` stored (0075_vote_records_implied.sql): a create's is `{}`, a vote's change is implied
    // by its shape (2: a vote, 3: a vote taken back) and the object's count
    const n = SUGGESTION_SHAPE_1_KEYS.length;
    expect(stored).toEqual([
      { data: null, object_shape: 1, n },
      { data: null, object_shape: 2, n },
      { data: null, object_shape: 2, n },
      { data: null, object_shape: 3, n },
    ]);
    expect(events.slice(1).map((e) => e.data.changes)).toEqual([
      { upvote_count: { from: 0, to: 1 } },
      { upvote_count: { from: 1, to: 2 } },
      { upvote_count: { from: 2, to: 1 } },
    ]);
    // shape 1's keys are the object's fields, in order: a field added without a new shape fails here;
    // shapes 2 and 3 have the same keys
    const { rows: shape } = await pool.query<{ keys: string[] }>(
      'SELECT event_object_keys(s::smallint) AS keys FROM generate_series(1, 3) AS s ORDER BY s',
    );
    expect(shape[0]!.keys).toEqual(Object.keys(fieldSqlOf(SUGGESTION_COLUMN_MAP, ['list', 'read', 'dashboard'])));
    expect(shape.map((row) => row.keys)).toEqual([1, 2, 3].map(() => [...SUGGESTION_SHAPE_1_KEYS]));

    // the last event, rebuilt, is byte for byte the whole object of the row as it stands after it
    const { rows: same } = await pool.query<{ rebuilt: string; whole: string }>(
      `SELECT event_data(e.data, e.object_shape, e.object_values)::text AS rebuilt,
         (SELECT jsonb_build_object('object', ${SUGGESTION_OBJECT_SQL},
            'changes', jsonb_build_object('upvote_count', jsonb_build_object('from', 2, 'to', 1)))::text
          FROM suggestions WHERE id = $2) AS whole
       FROM events e
       WHERE e.business_id = $1 AND e.object_shape = 3`,
      [t.business.id, created.id],
    );
    expect(same[0]!.rebuilt).toBe(same[0]!.whole);
    expect(events[3]!.data).toEqual(JSON.parse(same[0]!.whole));

    // the webhook payloads carry the whole data, as the feed serves it
    const { rows: deliveries } = await pool.query<{ payload: string }>(
      'SELECT payload FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at, event_type',
      [t.business.id],
    );
    const payloads = deliveries.map((d) => JSON.parse(d.payload) as { type: string; data: unknown });
    expect(payloads.map((p) => p.type).sort()).toEqual(events.map((e) => e.type).sort());
    for (const event of events) {
      expect(payloads.some((p) => p.type === event.type && isDeepStrictEqual(p.data, event.data))).toBe(true);
    }
    expect(events[0]!.data).toEqual({ object: { ...events[1]!.data.object, upvote_count: 0 } });
  });

  it('When issues are created and assigned and resolved, then issue events carry status, assignee and resolved_at', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await send('post', `${biz(t)}/issues`, asOwner(t), { title: 'Broken tap', description: 'It drips' });
    await send('patch', `${biz(t)}/issues/${issue.id}`, asOwner(t), { assignee_id: t.member.id });
    await send('patch', `${biz(t)}/issues/${issue.id}`, asOwner(t), { status: 'resolved' });
    const events = await allEvents(t, 3);
    expect(events.map((e) => e.type)).toEqual(['issue.created', 'issue.updated', 'issue.updated']);
    expect(events[1]!.data.changes).toEqual({
      status: { from: 'open', to: 'assigned' },
      assignee_id: { from: null, to: t.member.id },
    });
    const resolved = await readOne(t, `${biz(t)}/issues/${issue.id}`);
    expect(events[2]!.data.object).toEqual(resolved);
    expect(events[2]!.data.changes).toMatchObject({
      status: { from: 'assigned', to: 'resolved' },
      resolved_at: { from: null, to: resolved.resolved_at },
    });
  });

  it('When an issue with every field set is created, then its event object is its read', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await send('post', `${biz(t)}/issues`, asOwner(t), {
      title: 'Wobbly table',
      description: 'Table 4 rocks',
      priority: 'critical',
      assignee_id: t.member.id,
      customer_name: 'Zoë',
      customer_email: 'zoe@example.com',
    });
    const [created] = await allEvents(t, 1);
    expect(created!.data).toEqual({ object: await readOne(t, `${biz(t)}/issues/${issue.id}`) });
  });

  it('When comments are added on either kind through either family, then comment.created carries the comment', async () => {
    const t = await buildTeam(ctx.db);
    const suggestion = await send('post', '/api/v1/suggestions', { 'X-API-Key': t.write }, { content: 'More tables' });
    const issue = await send('post', `${biz(t)}/issues`, asOwner(t), { title: 'Leak', description: 'Roof' });
    const viaKey = await send(
      'post',
      `/api/v1/suggestions/${suggestion.id}/comments`,
      { 'X-API-Key': t.write },
      {
        content: 'Noted',
      },
    );
    const viaMember = await send('post', `${biz(t)}/issues/${issue.id}/comments`, asOwner(t), { content: 'On it' });
    const comments = (await allEvents(t, 4)).filter((e) => e.type === 'comment.created');
    expect(comments.map((e) => e.data.object)).toEqual([viaKey, viaMember]);
  });

  it('When QR codes are created, changed and deleted, then their events carry the code as read', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await send('post', `${biz(t)}/qr-codes`, asOwner(t), { label: 'Table 4' });
    const changed = await send('patch', `${biz(t)}/qr-codes/${qr.id}`, asOwner(t), { active: false });
    await send('delete', `${biz(t)}/qr-codes/${qr.id}`, asOwner(t));
    const events = await allEvents(t, 3);
    expect(events.map((e) => e.type)).toEqual(['qr_code.created', 'qr_code.updated', 'qr_code.deleted']);
    expect(events[0]!.data.object).toEqual(qr);
    expect(events[1]!.data).toEqual({ object: changed, changes: { active: { from: true, to: false } } });
    expect(events[2]!.data.object).toEqual(changed);
  });

  it('When a change fails, then no event is written', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .post(`${biz(t)}/suggestions`)
      .set(asOwner(t))
      .send({ content: 'x', location_id: '0194b2b1-33c7-7e05-a1f8-9b4d2c6e0a47' });
    expect(res.status).toBe(400);
    expect(await readAll(t)).toEqual([]);
  });
});

describe('The event feed', () => {
  it('When read page by page with next_cursor, then every event comes once, oldest first, in both families', async () => {
    const t = await buildTeam(ctx.db);
    for (let i = 0; i < 5; i++) await send('post', `${biz(t)}/qr-codes`, asOwner(t), { label: `Table ${i}` });
    await allEvents(t, 5);
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await ctx
        .request()
        .get(`${biz(t)}/events`)
        .set(asOwner(t))
        .query(after ? { after, limit: 2 } : { limit: 2 });
      expect(res.status).toBe(200);
      const feed = res.body as Feed;
      seen.push(...feed.data.map((e) => String(e.data.object.label)));
      after = feed.next_cursor ?? undefined;
      if (!feed.has_more) break;
    }
    expect(seen).toEqual(['Table 0', 'Table 1', 'Table 2', 'Table 3', 'Table 4']);
    const again = await readFeed(t, { after: after! });
    expect(again).toEqual({ data: [], next_cursor: after, has_more: false });
  });

  it('When filtered by type, then only those types come', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await send('post', `${biz(t)}/qr-codes`, asOwner(t), { label: 'Door' });
    await send('patch', `${biz(t)}/qr-codes/${qr.id}`, asOwner(t), { label: 'Front door' });
    await allEvents(t, 2);
    const feed = await readFeed(t, { type: 'qr_code.updated,issue.updated' });
    expect(feed.data.map((e) => e.type)).toEqual(['qr_code.updated']);
  });

  it('When another business reads its feed, then it never sees these events', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    await send('post', `${biz(t)}/qr-codes`, asOwner(t), { label: 'Mine' });
    expect((await readFeed(other)).data).toEqual([]);
  });

  it('When the first call passes an empty after, as the README pull line does before it has a cursor, then it reads from the start', async () => {
    const t = await buildTeam(ctx.db);
    await send('post', `${biz(t)}/qr-codes`, asOwner(t), { label: 'Till' });
    const [first] = await allEvents(t, 1);
    const cursor = ''; // CURSOR=; curl ".../events?limit=100&after=$CURSOR"
    const res = await ctx.request().get(`/api/v1/events?limit=100&after=${cursor}`).set('X-API-Key', t.read);
    expect(res.status, res.text).toBe(200);
    const feed = res.body as Feed;
    expect(feed.data.map((e) => e.id)).toEqual([first!.id]);
    expect(feed.next_cursor).toEqual(expect.any(String));
    const empty = await readFeed(t, { after: '', type: 'issue.updated' });
    expect(empty).toEqual({ data: [], next_cursor: null, has_more: false });
  });

  it('When the cursor or type is malformed, then a 400 says so', async () => {
    const t = await buildTeam(ctx.db);
    for (const query of [{ after: 'nonsense' }, { type: 'suggestion.exploded' }, { limit: 101 }, { after: 'WzFd' }]) {
      const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toMatch(/^Query failed:/);
    }
  });

  it('When the cursor is older than the retention, then a 410 explains it', async () => {
    const t = await buildTeam(ctx.db);
    const old = Buffer.from(JSON.stringify(['1', 1, Date.now() - 31 * 24 * 3_600_000])).toString('base64url');
    const res = await ctx.request().get('/api/v1/events').set('X-API-Key', t.read).query({ after: old });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ code: 'CURSOR_EXPIRED', message: expect.stringMatching(/30-day/) });
  });

  it('When transactions commit out of the order of their event ids, then a poller misses none and repeats none', async () => {
    const t = await buildTeam(ctx.db);
    const pool = ctx.db.pool;
    const seen: string[] = [];
    let after: string | undefined;
    const poll = async () => {
      const feed = await readFeed(t, after ? { after } : {});
      seen.push(...feed.data.map((e) => String(e.data.object.label)));
      after = feed.next_cursor ?? after;
    };
    // Shaped like a QR code, as the document promises for qr_code.* events; told apart by label.
    const event = (name: string) => ({ object: { ...(exampleOf(qrCodeSchema) as object), label: name } });

    // A writes first (its transaction id and event come first), then B and C write and commit.
    const a = await pool.connect();
    await a.query('BEGIN');
    await publishEvent(a, t.business.id, 'qr_code.created', event('A'));
    const others = (async () => {
      if (testMode() === 'embedded') {
        // One session: each transaction waits for the one before to end.
        for (const name of ['B', 'C']) {
          await withTransaction(pool, (tx) => publishEvent(tx, t.business.id, 'qr_code.created', event(name)));
        }
        return;
      }
      // C takes its transaction id before B, but its event after B's: both orders are covered.
      const c = await pool.connect();
      const b = await pool.connect();
      try {
        await c.query('BEGIN');
        await c.query('SELECT pg_current_xact_id()');
        await b.query('BEGIN');
        await publishEvent(b, t.business.id, 'qr_code.created', event('B'));
        await publishEvent(c, t.business.id, 'qr_code.created', event('C'));
        await b.query('COMMIT');
        await c.query('COMMIT');
      } finally {
        b.release();
        c.release();
      }
    })();
    if (testMode() === 'postgres') {
      // B and C are committed while A is still open: a poll now must not move past A's event.
      await others;
      await poll();
      expect(seen).toEqual([]);
    }
    // On the embedded database (one session) B and C wait for A: commits cannot happen out of order.
    await a.query('COMMIT');
    a.release();
    await others;
    // Other databases' transactions on the same server can hold the horizon back a moment: poll a bounded number of times.
    for (let i = 0; i < 100 && seen.length < 3; i++) {
      await poll();
      await sleep(20);
    }
    await poll();
    expect(seen.sort()).toEqual(['A', 'B', 'C']);
  });
});
