import { describe, expect, it } from 'vitest';
import { entityHistory } from '../../src/analytics/analytics.service.js';
import { publishEvent, purgeEvents } from '../../src/outbox/outbox.service.js';
import { qrCodeSchema } from '../../src/qr-codes/qr-code.responses.js';
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
    expect(await purgeEvents(ctx.db.pool, 30)).toBe(0);
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
