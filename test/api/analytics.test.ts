import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const overview = (t: Team, token = t.ownerToken) =>
  ctx
    .request()
    .get(`/businesses/${t.business.id}/analytics/overview`)
    .set({ Authorization: `Bearer ${token}` });
const suggest = (t: Team, body: object) =>
  ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(body);

describe('GET /businesses/:id/analytics/overview', () => {
  it('When the business is new, then every count is zero and every status and sentiment is present', async () => {
    const t = await buildTeam(ctx.db);
    const res = await overview(t, t.member.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      suggestions: { total: 0, by_status: { pending: 0, reviewing: 0, in_progress: 0, completed: 0, rejected: 0 } },
      issues: { total: 0, by_status: { open: 0, assigned: 0, in_progress: 0, resolved: 0, closed: 0 } },
      sentiment: {
        positive: { count: 0, average_score: null },
        neutral: { count: 0, average_score: null },
        negative: { count: 0, average_score: null },
      },
      created: { last_7_days: { suggestions: 0, issues: 0 }, last_30_days: { suggestions: 0, issues: 0 } },
    });
  });

  it('When there is data, then counts, sentiment averages, recent windows and activity are right, and only this business counts', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    await suggest(other, { content: 'I love it' });
    await suggest(t, { content: 'I love it', status: 'completed' });
    await suggest(t, { content: 'Wonderful and great' });
    await suggest(t, { content: 'The service was terrible and the coffee awful.' });
    const old = await suggest(t, { content: 'A door' });
    await ctx.db.pool.query(`UPDATE suggestions SET created_at = now() - interval '10 days' WHERE id = $1`, [
      old.body.id,
    ]);
    await buildIssue(ctx.db, t.business.id, { status: 'open' });
    await buildIssue(ctx.db, t.business.id, { status: 'resolved' });
    const res = await overview(t);
    expect(res.body.suggestions).toEqual({
      total: 4,
      by_status: { pending: 3, reviewing: 0, in_progress: 0, completed: 1, rejected: 0 },
    });
    expect(res.body.issues.total).toBe(2);
    expect(res.body.issues.by_status).toMatchObject({ open: 1, resolved: 1 });
    expect(res.body.sentiment.positive.count).toBe(2);
    expect(res.body.sentiment.positive.average_score).toBeGreaterThan(0);
    expect(res.body.sentiment.negative).toMatchObject({ count: 1 });
    // "A door" is too short for a language: not scored, so counted apart from neutral (issue 43)
    expect(res.body.sentiment.neutral).toEqual({ count: 0, average_score: null });
    expect(res.body.sentiment_unscored).toBe(1);
    expect(res.body.created).toEqual({
      last_7_days: { suggestions: 3, issues: 2 },
      last_30_days: { suggestions: 4, issues: 2 },
    });
    expect(res.body.recent_activity[0]).toMatchObject({
      type: 'suggestion.created',
      entity: { type: 'suggestion', id: old.body.id },
      actor: { type: 'api_key', user_id: t.owner.id, api_key_id: t.writeKey.id, api_key_name: 'Zapier sync' },
    });
  });

  it('When there are more than 20 changes, then the 20 latest are listed, newest first', async () => {
    const t = await buildTeam(ctx.db);
    for (let i = 0; i < 22; i++) await suggest(t, { content: `item ${i}` });
    const res = await overview(t);
    expect(res.body.recent_activity).toHaveLength(20);
    const times = res.body.recent_activity.map((a: { created_at: string }) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('When a query parameter is given, then it is a 400', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .get(`/businesses/${t.business.id}/analytics/overview?days=7`)
      .set({ Authorization: `Bearer ${t.ownerToken}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('days');
  });
});
