import { describe, expect, it } from 'vitest';
import { entityActivity } from '../../src/analytics/analytics.repository.js';
import { entityHistory } from '../../src/analytics/analytics.service.js';
import { insertRecords, type ActivityEntry } from '../../src/outbox/outbox.repository.js';
import { publishEvent, purgeEvents } from '../../src/outbox/outbox.service.js';
import { qrCodeSchema } from '../../src/qr-codes/qr-code.responses.js';
import { newId } from '../../src/shared/ids.js';
import { exampleOf } from '../../src/shared/responses.js';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

/**
 * A change's activity and its event are one row (0069_one_record_row.sql): the purge of events past
 * their retention takes the event out of the feed and keeps the activity, which has no retention.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const feed = async (t: Team) => {
  const res = await ctx.request().get('/api/v1/events?limit=100').set('X-API-Key', t.read);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { type: string; data: { object: { id: string } } }[] }).data;
};
const recentActivity = async (t: Team) => {
  const res = await ctx
    .request()
    .get(`/businesses/${t.business.id}/analytics/overview`)
    .set('Authorization', `Bearer ${t.ownerToken}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { recent_activity: { id: number; type: string; entity: { id: string } }[] }).recent_activity.map(
    ({ id, type, entity }) => ({ id, type, entity }),
  );
};
/**
 * Each row of the business's `events` in the order written but its keys' activity (buildTeam's): its
 * event type, stored activity type and entity.
 */
const storedActivityTypes = async (businessId: string) =>
  (
    await ctx.db.pool.query<{ type: string | null; activity_type: string | null; entity_id: string | null }>(
      `SELECT type, activity_type, entity_id FROM events
       WHERE business_id = $1 AND entity_type IS DISTINCT FROM 'api_key'
       ORDER BY seq`,
      [businessId],
    )
  ).rows;
const suggest = async (t: Team, content: string) => {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
};

describe('Events past their retention', () => {
  it('When the purge runs, then old events leave the feed, their activity stays, and younger events stay in both', async () => {
    const t = await buildTeam(ctx.db);
    const old = await suggest(t, 'Longer opening hours on Sundays please');
    const voted = await ctx
      .request()
      .post(`/api/v1/suggestions/${old.id}/votes`)
      .set('X-API-Key', t.write)
      .send({ voter: { external_id: 'u-1' } });
    expect(voted.status, voted.text).toBe(201);
    const withdrawn = await ctx
      .request()
      .delete(`/api/v1/suggestions/${old.id}/votes/${voted.body.id}`)
      .set('X-API-Key', t.write);
    expect(withdrawn.status, withdrawn.text).toBe(204);
    // an event without activity (as a merge's target update or a webhook test has)
    await publishEvent(ctx.db.pool, t.business.id, 'qr_code.created', { object: exampleOf(qrCodeSchema) });
    // an activity of its event's type stores none of its own (0077): the view reads the event's
    expect(await storedActivityTypes(t.business.id)).toEqual([
      { type: 'suggestion.created', activity_type: null, entity_id: old.id },
      { type: 'suggestion.voted', activity_type: null, entity_id: old.id },
      { type: 'suggestion.voted', activity_type: 'suggestion.unvoted', entity_id: old.id },
      { type: 'qr_code.created', activity_type: null, entity_id: null },
    ]);
    const activityBefore = await recentActivity(t);
    expect(activityBefore.map((a) => a.type)).toEqual(
      expect.arrayContaining(['suggestion.created', 'suggestion.voted', 'suggestion.unvoted']),
    );
    await ctx.db.pool.query(`UPDATE events SET created_at = created_at - interval '31 days' WHERE business_id = $1`, [
      t.business.id,
    ]);
    const young = await suggest(t, 'A bike stand by the entrance would help');

    expect(await purgeEvents(ctx.db.pool, 30)).toBeGreaterThanOrEqual(3);

    // Another test's open transaction on the same server holds the feed's horizon back a moment
    // (the feed shows only what no open transaction can still precede): poll a bounded number of times.
    let shown = await feed(t);
    for (let i = 0; i < 100 && !shown.some((e) => e.data.object.id === young.id); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shown = await feed(t);
    }
    expect(shown.map((e) => [e.type, e.data.object.id])).toEqual([['suggestion.created', young.id]]);
    const activityAfter = await recentActivity(t);
    expect(activityAfter[0]).toMatchObject({ type: 'suggestion.created', entity: { id: young.id } });
    expect(activityAfter.slice(1)).toEqual(activityBefore);
    const history = await entityHistory(ctx.db.pool, t.business.id, 'suggestion', old.id);
    expect(history.map((a) => a.type)).toEqual(['suggestion.created', 'suggestion.voted', 'suggestion.unvoted']);
    // the activity's own data outlives the event (a vote taken back records which vote it was)
    expect(history[2]!.data).toMatchObject({ vote_id: voted.body.id, voter_type: 'external_id', upvote_count: 0 });

    // the activity rows kept nothing of the feed; the event without activity is gone
    const { rows } = await ctx.db.pool.query<{ feed: number; trimmed: number }>(
      `SELECT count(*) FILTER (WHERE type IS NOT NULL)::int AS feed,
         count(*) FILTER (WHERE type IS NULL AND data IS NULL AND object_values IS NULL AND id IS NULL
           AND activity_type LIKE 'suggestion.%')::int AS trimmed
       FROM events
       WHERE business_id = $1 AND created_at < now() - interval '30 days'`,
      [t.business.id],
    );
    expect(rows[0]).toEqual({ feed: 0, trimmed: 3 });
    // the trim kept each activity's type, the event's where it stored none
    expect(await storedActivityTypes(t.business.id)).toEqual([
      { type: null, activity_type: 'suggestion.created', entity_id: old.id },
      { type: null, activity_type: 'suggestion.voted', entity_id: old.id },
      { type: null, activity_type: 'suggestion.unvoted', entity_id: old.id },
      { type: 'suggestion.created', activity_type: null, entity_id: young.id },
    ]);
    expect(await purgeEvents(ctx.db.pool, 30)).toBe(0);
  });

  it('When activity is recorded with or without an event, then the activity reads its own type, stored only where it differs', async () => {
    const t = await buildTeam(ctx.db);
    const entity = (entityId: string, type: string): ActivityEntry => ({
      type,
      entityType: 'location',
      entityId,
      actorUserId: null,
      actorApiKeyId: null,
      actorQrCodeId: null,
      data: { name: type },
    });
    const [alone, same, other] = [newId(), newId(), newId()];
    const event = (type: string) => ({ id: newId(), type, data: { object: { id: type } } });
    await insertRecords(ctx.db.pool, t.business.id, entity(alone, 'location.created'), null);
    await insertRecords(ctx.db.pool, t.business.id, entity(same, 'location.updated'), event('location.updated'));
    await insertRecords(ctx.db.pool, t.business.id, entity(other, 'location.deleted'), event('location.updated'));

    expect(await storedActivityTypes(t.business.id)).toEqual([
      { type: null, activity_type: 'location.created', entity_id: alone },
      { type: 'location.updated', activity_type: null, entity_id: same },
      { type: 'location.updated', activity_type: 'location.deleted', entity_id: other },
    ]);
    const { rows } = await ctx.db.pool.query<{ type: string; entity_type: string; entity_id: string; data: unknown }>(
      "SELECT type, entity_type, entity_id, data FROM activity WHERE business_id = $1 AND entity_type = 'location' ORDER BY id",
      [t.business.id],
    );
    expect(rows).toEqual([
      { type: 'location.created', entity_type: 'location', entity_id: alone, data: { name: 'location.created' } },
      { type: 'location.updated', entity_type: 'location', entity_id: same, data: { name: 'location.updated' } },
      { type: 'location.deleted', entity_type: 'location', entity_id: other, data: { name: 'location.deleted' } },
    ]);
    for (const [id, type] of [
      [alone, 'location.created'],
      [same, 'location.updated'],
      [other, 'location.deleted'],
    ] as const) {
      const history = await entityActivity(ctx.db.pool, t.business.id, 'location', id, 10);
      expect(history.map((a) => [a.type, a.entity_id])).toEqual([[type, id]]);
      // the entity index's key has no entity type: the read still filters it
      expect(await entityActivity(ctx.db.pool, t.business.id, 'suggestion', id, 10)).toEqual([]);
    }
  });

  it('When a business is read, then its activity and feed come from its own rows only', async () => {
    const [a, b] = [await buildTeam(ctx.db), await buildTeam(ctx.db)];
    const mine = await suggest(a, 'Quieter music in the evening please');
    await suggest(b, 'Another business entirely, with its own row');
    expect((await feed(a)).map((e) => e.data.object.id)).toEqual([mine.id]);
    expect((await recentActivity(a)).filter((x) => x.type.startsWith('suggestion.'))).toEqual([
      expect.objectContaining({ type: 'suggestion.created', entity: { id: mine.id, type: 'suggestion' } }),
    ]);
  });
});
