import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOtherApps, useTestApp } from '../support/app.js';
import { buildIssue, buildSuggestion, buildTeam } from '../support/factories.js';

/**
 * The dashboard's lists and both families' comment lists are cached like the /api/v1 lists
 * (docs/caching.md), keyed by the change number read with the membership: whatever writes, through
 * the other family, another instance or SQL by hand, the next list shows it.
 */
const ctx = useTestApp();
const otherApp = useOtherApps(ctx);
type Team = Awaited<ReturnType<typeof buildTeam>>;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Statements that read list rows of `table` (the credential lookup carries the change number). */
function countReads(table: string) {
  const spy = vi.spyOn(ctx.db.pool, 'query');
  const pattern = new RegExp(`FROM ${table}\\s`);
  return () => spy.mock.calls.filter(([text]) => typeof text === 'string' && pattern.test(text)).length;
}

async function get(t: Team, path: string, token = t.ownerToken, request = ctx.request()) {
  const res = await request.get(`/businesses/${t.business.id}${path}`).set('Authorization', `Bearer ${token}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: Record<string, unknown>[]; total: number };
}

describe('Cached dashboard lists', () => {
  it('When a session asks the same list twice with nothing changed, then the second answer reads no rows', async () => {
    const t = await buildTeam(ctx.db);
    await buildSuggestion(ctx.db, t.business.id);
    const first = await get(t, '/suggestions?sort=priority');
    const reads = countReads('suggestions');
    expect(await get(t, '/suggestions?sort=priority')).toEqual(first);
    expect(await get(t, '/suggestions?sort=priority', t.member.token)).toEqual(first);
    expect(reads()).toBe(0);
  });

  it('When a suggestion is written through /api/v1, another instance, or by hand, then the next dashboard list shows it', async () => {
    const t = await buildTeam(ctx.db);
    expect((await get(t, '/suggestions')).total).toBe(0);
    await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'From the API' });
    expect((await get(t, '/suggestions')).total).toBe(1);

    const other = otherApp();
    const created = await other
      .request()
      .post(`/businesses/${t.business.id}/suggestions`)
      .set('Authorization', `Bearer ${t.admin.token}`)
      .send({ content: 'From the other instance' });
    expect(created.status).toBe(201);
    expect((await get(t, '/suggestions')).total).toBe(2);

    await ctx.db.pool.query(`UPDATE suggestions SET status = 'completed' WHERE id = $1`, [created.body.id]);
    const listed = await get(t, '/suggestions?status=completed');
    expect(listed.data.map((s) => s.id)).toEqual([created.body.id]);
    await ctx.db.pool.query(`DELETE FROM suggestions WHERE id = $1`, [created.body.id]);
    expect((await get(t, '/suggestions?status=completed')).total).toBe(0);
  });

  it('When an issue is changed by hand or through the other instance, then the next dashboard issue list shows it', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await buildIssue(ctx.db, t.business.id);
    expect((await get(t, '/issues')).data[0]).toMatchObject({ status: 'open' });
    await ctx.db.pool.query(`UPDATE issues SET status = 'closed' WHERE id = $1`, [issue.id]);
    expect((await get(t, '/issues')).data[0]).toMatchObject({ status: 'closed' });
    const patched = await otherApp()
      .request()
      .patch(`/businesses/${t.business.id}/issues/${issue.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ priority: 'critical' });
    expect(patched.status).toBe(200);
    expect((await get(t, '/issues')).data[0]).toMatchObject({ priority: 'critical' });
  });

  it('When a comment is added through either family or by hand, then both families’ comment lists show it at once', async () => {
    const t = await buildTeam(ctx.db);
    const suggestion = await buildSuggestion(ctx.db, t.business.id);
    const dashboardPath = `/suggestions/${suggestion.id}/comments`;
    const v1 = async () => {
      const res = await ctx.request().get(`/api/v1${dashboardPath}`).set('X-API-Key', t.read);
      expect(res.status).toBe(200);
      return res.body.total as number;
    };
    expect((await get(t, dashboardPath)).total).toBe(0);
    expect(await v1()).toBe(0);
    await ctx.request().post(`/api/v1${dashboardPath}`).set('X-API-Key', t.write).send({ content: 'Via key' });
    expect((await get(t, dashboardPath)).total).toBe(1);
    expect(await v1()).toBe(1);
    await ctx
      .request()
      .post(`/businesses/${t.business.id}${dashboardPath}`)
      .set('Authorization', `Bearer ${t.member.token}`)
      .send({ content: 'Via dashboard' });
    expect(await v1()).toBe(2);
    await ctx.db.pool.query(`DELETE FROM comments WHERE entity_id = $1`, [suggestion.id]);
    expect((await get(t, dashboardPath)).total).toBe(0);
    expect(await v1()).toBe(0);
  });

  it('When a member is removed, then a cached list is not served to their session', async () => {
    const t = await buildTeam(ctx.db);
    await get(t, '/suggestions', t.member.token);
    await ctx
      .request()
      .delete(`/businesses/${t.business.id}/team/members/${t.member.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`);
    const res = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions`)
      .set('Authorization', `Bearer ${t.member.token}`);
    expect(res.status).toBe(403);
  });
});
