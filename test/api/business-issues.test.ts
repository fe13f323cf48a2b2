import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Item = Record<string, unknown> & { id: string; resolved_at: string | null; status: string };

const base = (t: Team) => `/businesses/${t.business.id}`;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

async function create(t: Team, body: Record<string, unknown>) {
  const res = await ctx
    .request()
    .post(`${base(t)}/issues`)
    .set(asOwner(t))
    .send(body);
  expect(res.status, res.text).toBe(201);
  return res.body as Item;
}
const patch = async (t: Team, id: string, body: object) => {
  const res = await ctx
    .request()
    .patch(`${base(t)}/issues/${id}`)
    .set(asOwner(t))
    .send(body);
  return res;
};

describe('/businesses/:id/issues', () => {
  it('When an issue is created with the minimum, then it is open, medium, unassigned, anonymous', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: '  Leaking tap  ' });
    expect(issue).toMatchObject({
      title: 'Leaking tap',
      description: '',
      status: 'open',
      priority: 'medium',
      assignee_id: null,
      is_anonymous: true,
      resolved_at: null,
    });
  });

  it('When an issue is created with an assignee, then it starts assigned', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, {
      title: 'Wi-Fi',
      description: 'Down since noon',
      priority: 'high',
      customer_name: 'Bo',
      customer_email: 'bo@example.com',
      assignee_id: t.admin.id,
    });
    expect(issue).toMatchObject({ status: 'assigned', assignee_id: t.admin.id, is_anonymous: false, priority: 'high' });
  });

  it.each([
    ['no title', {}, 'title'],
    ['an empty title', { title: '  ' }, 'title'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a description over 10000 characters', { title: 't', description: 'x'.repeat(10_001) }, 'description'],
    ['an unknown priority', { title: 't', priority: 'p0' }, 'priority'],
    ['a bad email', { title: 't', customer_email: 'nope' }, 'customer_email'],
    ['a status (not settable at creation)', { title: 't', status: 'closed' }, 'status'],
    ['a malformed assignee', { title: 't', assignee_id: 'me' }, 'assignee_id'],
  ])('When the body has %s, then it is a 400 naming the field', async (_label, body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .post(`${base(t)}/issues`)
      .set(asOwner(t))
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('When the assignee is not a member of the business, then it is a 400 on create and on update', async () => {
    const t = await buildTeam(ctx.db);
    const stranger = await buildTeam(ctx.db);
    const create400 = await ctx
      .request()
      .post(`${base(t)}/issues`)
      .set(asOwner(t))
      .send({ title: 't', assignee_id: stranger.admin.id });
    expect(create400.status).toBe(400);
    expect(create400.body.message).toContain('assignee_id');
    const issue = await create(t, { title: 't' });
    const update400 = await patch(t, issue.id, { assignee_id: stranger.admin.id });
    expect(update400.status).toBe(400);
    expect(
      (
        await ctx
          .request()
          .get(`${base(t)}/issues/${issue.id}`)
          .set(asOwner(t))
      ).body.assignee_id,
    ).toBeNull();
  });

  it('When someone is assigned to an open issue, then it moves to assigned; unassigning moves it back', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: 't' });
    expect((await patch(t, issue.id, { assignee_id: t.member.id })).body).toMatchObject({
      status: 'assigned',
      assignee_id: t.member.id,
    });
    expect((await patch(t, issue.id, { assignee_id: null })).body).toMatchObject({ status: 'open', assignee_id: null });
  });

  it('When an issue is resolved, then resolved_at is set; reopened, it clears; closed, it is kept', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: 't' });
    const resolved = (await patch(t, issue.id, { status: 'resolved' })).body as Item;
    expect(resolved.resolved_at).toMatch(/Z$/);
    const closed = (await patch(t, issue.id, { status: 'closed' })).body as Item;
    expect(closed.resolved_at).toBe(resolved.resolved_at);
    const reopened = (await patch(t, issue.id, { status: 'resolved' })).body as Item;
    expect(reopened.resolved_at).not.toBeNull();
    const inProgress = (await patch(t, issue.id, { status: 'in_progress' })).body as Item;
    expect(inProgress.resolved_at).toBeNull();
  });

  it('When the assignee filter is used, then only their issues are listed, with the offset envelope', async () => {
    const t = await buildTeam(ctx.db);
    await create(t, { title: 'mine', assignee_id: t.member.id });
    await create(t, { title: 'projector', assignee_id: t.admin.id });
    await create(t, { title: 'nobody' });
    const res = await ctx
      .request()
      .get(`${base(t)}/issues?assignee_id=${t.member.id}`)
      .set(asOwner(t));
    expect(res.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(res.body.data.map((i: Item) => i.title)).toEqual(['mine']);
    const search = await ctx
      .request()
      .get(`${base(t)}/issues?q=proj&status=assigned`)
      .set(asOwner(t));
    expect(search.body.data.map((i: Item) => i.title)).toEqual(['projector']);
  });

  it.each([
    [{}, 'at least one'],
    [{ status: 'pending' }, 'status'],
    [{ resolved_at: '2026-01-01T00:00:00Z' }, 'resolved_at'],
  ])('When the patch is %j, then it is a 400', async (body, text) => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: 't' });
    const res = await patch(t, issue.id, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
  });

  it('When a member assigns an issue, then it is a 403; changing only its status is allowed', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: 't' });
    const member = { Authorization: `Bearer ${t.member.token}` };
    expect(
      (
        await ctx
          .request()
          .patch(`${base(t)}/issues/${issue.id}`)
          .set(member)
          .send({ assignee_id: t.member.id })
      ).status,
    ).toBe(403);
    expect(
      (
        await ctx
          .request()
          .patch(`${base(t)}/issues/${issue.id}`)
          .set(member)
          .send({ status: 'in_progress' })
      ).status,
    ).toBe(200);
  });

  it('When an issue changes, then activity records who changed what, in the same transaction', async () => {
    const t = await buildTeam(ctx.db);
    const issue = await create(t, { title: 't' });
    await patch(t, issue.id, { status: 'resolved' });
    const { rows } = await ctx.db.pool.query(
      'SELECT type, actor_user_id, data FROM activity WHERE entity_id = $1 ORDER BY id',
      [issue.id],
    );
    expect(rows.map((r: { type: string }) => r.type)).toEqual(['issue.created', 'issue.updated']);
    expect(rows[1]).toMatchObject({
      actor_user_id: t.owner.id,
      data: { from: { status: 'open' }, to: { status: 'resolved' } },
    });
  });
});
