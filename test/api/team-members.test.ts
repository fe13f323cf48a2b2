import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildIssue, buildTeam, buildUser } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const setRole = (t: Team, userId: string, role: string, token = t.ownerToken) =>
  ctx
    .request()
    .patch(`${base(t)}/team/members/${userId}`)
    .set(as(token))
    .send({ role });
const remove = (t: Team, userId: string, token = t.ownerToken) =>
  ctx
    .request()
    .delete(`${base(t)}/team/members/${userId}`)
    .set(as(token));

async function roles(t: Team) {
  const res = await ctx
    .request()
    .get(`${base(t)}/team`)
    .set(as(t.ownerToken));
  return Object.fromEntries(res.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role]));
}

describe('PATCH /businesses/:id/team/members/:user_id', () => {
  it('When an admin makes a member admin, then the answer is the member with the new role and one activity row records it', async () => {
    const t = await buildTeam(ctx.db);
    const res = await setRole(t, t.member.id, 'admin', t.admin.token);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user_id', 'name', 'email', 'role', 'joined_at']);
    expect(res.body).toMatchObject({ user_id: t.member.id, role: 'admin', email: t.member.email });
    expect((await roles(t))[t.member.id]).toBe('admin');
    const { rows } = await ctx.db.pool.query(
      `SELECT type, actor_user_id, data FROM activity WHERE business_id = $1 AND entity_id = $2 AND type = 'member.updated'`,
      [t.business.id, t.member.id],
    );
    expect(rows).toEqual([
      {
        type: 'member.updated',
        actor_user_id: t.admin.id,
        data: { changes: { role: { from: 'member', to: 'admin' } } },
      },
    ]);
  });

  it('When an admin tries to grant or take the owner role, then it is a 403; an owner may', async () => {
    const t = await buildTeam(ctx.db);
    expect((await setRole(t, t.member.id, 'owner', t.admin.token)).status).toBe(403);
    expect((await setRole(t, t.owner.id, 'admin', t.admin.token)).status).toBe(403);
    expect((await setRole(t, t.member.id, 'owner')).status).toBe(200);
    expect((await setRole(t, t.member.id, 'member', t.admin.token)).status).toBe(403);
    expect((await roles(t))[t.member.id]).toBe('owner');
  });

  it('When the last owner would be demoted, then it is a 409; after handing over, the old owner may step down', async () => {
    const t = await buildTeam(ctx.db);
    const last = await setRole(t, t.owner.id, 'admin');
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/last owner/);
    // hand over: make the admin owner, then step down
    expect((await setRole(t, t.admin.id, 'owner')).status).toBe(200);
    expect((await setRole(t, t.owner.id, 'member')).status).toBe(200);
    expect(await roles(t)).toMatchObject({ [t.admin.id]: 'owner', [t.owner.id]: 'member' });
  });

  it('When two owners demote each other at the same time, then one succeeds and the business keeps an owner', async () => {
    const t = await buildTeam(ctx.db);
    expect((await setRole(t, t.admin.id, 'owner')).status).toBe(200);
    const [a, b] = await Promise.all([
      setRole(t, t.admin.id, 'member', t.ownerToken),
      setRole(t, t.owner.id, 'member', t.admin.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, expect.any(Number)]);
    const owners = Object.values(await roles(t)).filter((role) => role === 'owner');
    expect(owners).toHaveLength(1);
    // the loser is refused as the last owner (409) or, having lost the owner role first, as no longer an owner (403)
    expect([a.status, b.status].filter((s) => s !== 200)).toEqual([expect.toBeOneOf([403, 409])]);
  });

  it.each([
    [{}, 'role'],
    [{ role: 'superuser' }, 'role'],
    [{ role: 'admin', name: 'x' }, "unknown field(s) 'name'"],
  ])('When the body is %j, then it is a 400 naming the field', async (body, named) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .patch(`${base(t)}/team/members/${t.member.id}`)
      .set(as(t.ownerToken))
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(named);
  });

  it('When the user is not a member of this business, or the id is malformed, then it is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    for (const id of [other.member.id, 'nope', '0190c7f0-0000-7000-8000-000000000000']) {
      expect((await setRole(t, id, 'admin')).status).toBe(404);
      expect((await remove(t, id)).status).toBe(404);
    }
    expect((await roles(other))[other.member.id]).toBe('member');
  });
});

describe('DELETE /businesses/:id/team/members/:user_id', () => {
  it('When a member is removed, then their very next request to this business is a 403 while their other business still answers', async () => {
    const t = await buildTeam(ctx.db);
    const elsewhere = await buildTeam(ctx.db);
    await ctx.db.pool.query(`INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, 'member')`, [
      elsewhere.business.id,
      t.member.id,
    ]);
    expect(
      (
        await ctx
          .request()
          .get(`${base(t)}/suggestions`)
          .set(as(t.member.token))
      ).status,
    ).toBe(200);
    expect((await remove(t, t.member.id, t.admin.token)).status).toBe(204);
    const after = await ctx
      .request()
      .get(`${base(t)}/suggestions`)
      .set(as(t.member.token));
    expect(after.status).toBe(403);
    const other = await ctx.request().get(`/businesses/${elsewhere.business.id}/suggestions`).set(as(t.member.token));
    expect(other.status).toBe(200);
    expect((await roles(t))[t.member.id]).toBeUndefined();
  });

  it('When a member with assigned issues is removed, then each is unassigned, assigned ones reopen, and each change is an activity row', async () => {
    const t = await buildTeam(ctx.db);
    const assigned = await buildIssue(ctx.db, t.business.id, { assigneeId: t.member.id, status: 'assigned' });
    const working = await buildIssue(ctx.db, t.business.id, { assigneeId: t.member.id, status: 'in_progress' });
    const someoneElse = await buildIssue(ctx.db, t.business.id, { assigneeId: t.admin.id, status: 'assigned' });
    expect((await remove(t, t.member.id)).status).toBe(204);
    const read = async (id: string) =>
      (
        await ctx
          .request()
          .get(`${base(t)}/issues/${id}`)
          .set(as(t.ownerToken))
      ).body as Record<string, unknown>;
    expect(await read(assigned.id)).toMatchObject({ assignee_id: null, status: 'open' });
    expect(await read(working.id)).toMatchObject({ assignee_id: null, status: 'in_progress' });
    expect(await read(someoneElse.id)).toMatchObject({ assignee_id: t.admin.id, status: 'assigned' });
    const { rows } = await ctx.db.pool.query(
      `SELECT entity_id, data FROM activity WHERE business_id = $1 AND type = 'issue.updated' ORDER BY entity_id`,
      [t.business.id],
    );
    expect(rows).toEqual(
      [
        {
          entity_id: assigned.id,
          data: {
            from: { status: 'assigned', priority: 'medium', assignee_id: t.member.id },
            to: { status: 'open', priority: 'medium', assignee_id: null },
            reason: 'member.removed',
          },
        },
        {
          entity_id: working.id,
          data: {
            from: { status: 'in_progress', priority: 'medium', assignee_id: t.member.id },
            to: { status: 'in_progress', priority: 'medium', assignee_id: null },
            reason: 'member.removed',
          },
        },
      ].sort((a, b) => a.entity_id.localeCompare(b.entity_id)),
    );
    const counts = await ctx
      .request()
      .get(`${base(t)}/analytics/overview`)
      .set(as(t.ownerToken));
    expect(counts.body.issues.by_status).toMatchObject({ open: 1, assigned: 1, in_progress: 1 });
  });

  it('When a plain member leaves, then it is a 204 recorded as member.left; removing someone else is a 403 for them', async () => {
    const t = await buildTeam(ctx.db);
    const colleague = await buildUser(ctx.db, t.business.id, 'member');
    expect((await remove(t, colleague.id, t.member.token)).status).toBe(403);
    expect((await remove(t, t.member.id, t.member.token)).status).toBe(204);
    const { rows } = await ctx.db.pool.query(`SELECT type, actor_user_id FROM activity WHERE entity_id = $1`, [
      t.member.id,
    ]);
    expect(rows).toEqual([{ type: 'member.left', actor_user_id: t.member.id }]);
  });

  it('When an admin tries to remove an owner, then it is a 403; the last owner can neither leave nor be removed (409)', async () => {
    const t = await buildTeam(ctx.db);
    expect((await remove(t, t.owner.id, t.admin.token)).status).toBe(403);
    const leave = await remove(t, t.owner.id, t.ownerToken);
    expect(leave.status).toBe(409);
    expect(leave.body.message).toMatch(/last owner/);
    expect((await setRole(t, t.admin.id, 'owner')).status).toBe(200);
    expect((await remove(t, t.owner.id, t.ownerToken)).status).toBe(204);
    expect((await ctx.request().get(base(t)).set(as(t.ownerToken))).status).toBe(403);
  });

  it('When any API key tries to change or remove a member, then it is a 403 and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    for (const key of [t.write, t.read]) {
      expect((await setRole(t, t.member.id, 'admin', key)).status).toBe(403);
      expect((await remove(t, t.member.id, key)).status).toBe(403);
    }
    expect((await roles(t))[t.member.id]).toBe('member');
  });
});
