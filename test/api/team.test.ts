import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

const invite = (t: Team, body: object, token = t.ownerToken) =>
  ctx
    .request()
    .post(`${base(t)}/team/invite`)
    .set(as(token))
    .send(body);

describe('team and invites', () => {
  it('When the team is read, then members and pending invites have the documented shape', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('invitee');
    await invite(t, { email, role: 'admin' });
    const res = await ctx
      .request()
      .get(`${base(t)}/team`)
      .set(as(t.member.token));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['members', 'invites']);
    expect(res.body.members).toHaveLength(3);
    expect(Object.keys(res.body.members[0])).toEqual(['user_id', 'name', 'email', 'role', 'joined_at']);
    expect(res.body.members.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'member', 'owner']);
    expect(res.body.invites).toEqual([
      { id: expect.any(String), email, role: 'admin', created_at: expect.any(String), expires_at: expect.any(String) },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/token|digest|password/);
  });

  it('When someone is invited, then the one-time token is shown once and accepting creates a user who can sign in', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('new');
    const created = await invite(t, { email, role: 'member' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'member', token: expect.stringMatching(/^fbi_/) });
    const accepted = await ctx
      .request()
      .post('/invites/accept')
      .send({ token: created.body.token, name: 'Nia', password: 'a long password' });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ user: { email, name: 'Nia' }, business_id: t.business.id, role: 'member' });
    const login = await ctx.request().post('/auth/login').send({ email, password: 'a long password' });
    expect(login.status).toBe(200);
    const team = await ctx
      .request()
      .get(`${base(t)}/team`)
      .set(as(login.body.token));
    expect(team.body.invites).toEqual([]);
    expect(team.body.members.map((m: { email: string }) => m.email)).toContain(email);
  });

  it('When the invite token is used twice, unknown or cancelled, then accepting is a 400', async () => {
    const t = await buildTeam(ctx.db);
    const first = await invite(t, { email: uniqueEmail('a') });
    const body = { token: first.body.token, name: 'A', password: 'password 123' };
    expect((await ctx.request().post('/invites/accept').send(body)).status).toBe(201);
    expect((await ctx.request().post('/invites/accept').send(body)).status).toBe(400);
    expect(
      (
        await ctx
          .request()
          .post('/invites/accept')
          .send({ ...body, token: 'fbi_nope' })
      ).status,
    ).toBe(400);
    const second = await invite(t, { email: uniqueEmail('b') });
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/team/invites/${second.body.id}`)
          .set(as(t.ownerToken))
      ).status,
    ).toBe(204);
    const cancelled = await ctx
      .request()
      .post('/invites/accept')
      .send({ ...body, token: second.body.token });
    expect(cancelled.status).toBe(400);
    expect(cancelled.body.message).toMatch(/invalid, expired or already used/);
  });

  it('When the invite has expired, then accepting is a 400 and a new invite for that email is allowed', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('late');
    const created = await invite(t, { email });
    await ctx.db.pool.query(`UPDATE team_invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      created.body.id,
    ]);
    const res = await ctx
      .request()
      .post('/invites/accept')
      .send({ token: created.body.token, name: 'L', password: 'password 123' });
    expect(res.status).toBe(400);
    expect((await invite(t, { email })).status).toBe(201);
  });

  it('When the email already belongs to a member or has a pending invite, then inviting is a 409', async () => {
    const t = await buildTeam(ctx.db);
    const member = await invite(t, { email: t.member.email.toUpperCase() });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    const email = uniqueEmail('twice');
    expect((await invite(t, { email })).status).toBe(201);
    expect((await invite(t, { email })).status).toBe(409);
  });

  it('When an existing user of another business accepts, then they gain the membership and keep their password', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const created = await invite(other, { email: t.admin.email, role: 'admin' });
    const res = await ctx
      .request()
      .post('/invites/accept')
      .send({ token: created.body.token, name: 'Ignored', password: 'another password' });
    expect(res.status).toBe(201);
    expect(res.body.user.id).toBe(t.admin.id);
    const team = await ctx
      .request()
      .get(`${base(other)}/team`)
      .set(as(t.admin.token));
    expect(team.status).toBe(200);
  });

  it('When an admin invites an owner, then it is a 403; an owner may', async () => {
    const t = await buildTeam(ctx.db);
    expect((await invite(t, { email: uniqueEmail('o'), role: 'owner' }, t.admin.token)).status).toBe(403);
    expect((await invite(t, { email: uniqueEmail('o'), role: 'owner' }, t.write)).status).toBe(403);
    expect((await invite(t, { email: uniqueEmail('o'), role: 'owner' })).status).toBe(201);
  });

  it.each([
    [{}, 'email'],
    [{ email: 'not an email' }, 'email'],
    [{ email: 'x@example.com', role: 'boss' }, 'role'],
  ])('When the invite body is %j, then it is a 400 naming the field', async (body, field) => {
    const t = await buildTeam(ctx.db);
    const res = await invite(t, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it.each([
    [{ name: 'N', password: 'password 1' }, 'token'],
    [{ token: 'fbi_x', password: 'password 1' }, 'name'],
    [{ token: 'fbi_x', name: 'N', password: 'short' }, 'password'],
  ])('When the accept body is %j, then it is a 400 naming the field', async (body, field) => {
    const res = await ctx.request().post('/invites/accept').send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('When an invite of another business is cancelled through this one, then it is a 404', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const theirs = await invite(other, { email: uniqueEmail('x') });
    expect(
      (
        await ctx
          .request()
          .delete(`${base(t)}/team/invites/${theirs.body.id}`)
          .set(as(t.ownerToken))
      ).status,
    ).toBe(404);
  });
});
