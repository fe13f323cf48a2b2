import { describe, expect, it } from 'vitest';
import { useOtherApps, useTestApp } from '../support/app.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);
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
      {
        id: expect.any(String),
        email,
        role: 'admin',
        // development mail mode: `sent` once the message is in the log
        delivery: expect.stringMatching(/^(pending|sent)$/),
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/token|digest|password/);
  });

  it('When someone is invited in development mail mode, then the token is shown once and accepting creates a user who can sign in', async () => {
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

  it('When the invite token is used twice, unknown or cancelled, then accepting is a 401', async () => {
    const t = await buildTeam(ctx.db);
    const first = await invite(t, { email: uniqueEmail('a') });
    const body = { token: first.body.token, name: 'A', password: 'password 123' };
    expect((await ctx.request().post('/invites/accept').send(body)).status).toBe(201);
    expect((await ctx.request().post('/invites/accept').send(body)).status).toBe(401);
    expect(
      (
        await ctx
          .request()
          .post('/invites/accept')
          .send({ ...body, token: 'fbi_nope' })
      ).status,
    ).toBe(401);
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
    expect(cancelled.status).toBe(401);
    expect(cancelled.body).toMatchObject({
      code: 'INVALID_INVITE',
      message: expect.stringMatching(/invalid, expired or already used/),
    });
  });

  it('When the invite has expired, then accepting is a 401 and a new invite for that email is allowed', async () => {
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
    expect(res.status).toBe(401);
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

  it('When an existing user of another business accepts while signed in, then they gain the membership', async () => {
    const t = await buildTeam(ctx.db);
    const other = await buildTeam(ctx.db);
    const created = await invite(other, { email: t.admin.email, role: 'admin' });
    const withPassword = await ctx
      .request()
      .post('/invites/accept')
      .set(as(t.admin.token))
      .send({ token: created.body.token, name: 'Ignored', password: 'another password' });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.message).toMatch(/only for a new account/);
    const res = await ctx.request().post('/invites/accept').set(as(t.admin.token)).send({ token: created.body.token });
    expect(res.status).toBe(201);
    expect(res.body.user.id).toBe(t.admin.id);
    expect(res.body).toMatchObject({ business_id: other.business.id, role: 'admin' });
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
    [{ name: 'N', password: 'password 123' }, 'token'],
    [{ password: 'password 123' }, 'name'],
    [{ name: 'N' }, 'password'],
    [{ name: 'N', password: 'short' }, 'password'],
    [{ name: 'N', password: 'qwertyuiop123' }, 'password'],
  ])('When the accept body for a new account is %j, then it is a 400 naming the field', async (body, field) => {
    const t = await buildTeam(ctx.db);
    const { token } = (await invite(t, { email: uniqueEmail('fields') })).body;
    const res = await ctx
      .request()
      .post('/invites/accept')
      .send(field === 'token' ? body : { token, ...body });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    // the invite is still usable
    const ok = await ctx.request().post('/invites/accept').send({ token, name: 'N', password: 'password 123' });
    expect(ok.status).toBe(201);
  });

  it('When an admin cancels an owner invite, then it is a 403; an owner may', async () => {
    const t = await buildTeam(ctx.db);
    const created = await invite(t, { email: uniqueEmail('o'), role: 'owner' });
    const cancel = (token: string) =>
      ctx
        .request()
        .delete(`${base(t)}/team/invites/${created.body.id}`)
        .set(as(token));
    expect((await cancel(t.admin.token)).status).toBe(403);
    expect((await cancel(t.ownerToken)).status).toBe(204);
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

describe('invite emails are capped', () => {
  const DAY_S = 24 * 60 * 60;
  const cancel = (t: Team, id: string) =>
    ctx
      .request()
      .delete(`${base(t)}/team/invites/${id}`)
      .set(as(t.ownerToken));
  const mailsTo = async (email: string) =>
    (await ctx.db.pool.query<{ n: number }>('SELECT count(*) AS n FROM mail_outbox WHERE recipient = $1', [email]))
      .rows[0]!.n;

  it('When an address is invited and cancelled three times in a day, then a fourth invite is a 429 with Retry-After, and no fourth email is written', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('again');
    for (let i = 0; i < 3; i++) {
      const sent = await invite(t, { email });
      expect(sent.status, sent.text).toBe(201);
      expect((await cancel(t, sent.body.id)).status).toBe(204);
    }
    const refused = await invite(t, { email: email.toUpperCase() });

    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: expect.stringMatching(/invited 3 times/),
        retryAfter: expect.any(Number),
      },
    });
    expect(refused.headers['retry-after']).toBe(String(refused.body.error.retryAfter));
    // The first of the three leaves the 24-hour window in about a day.
    expect(refused.body.error.retryAfter).toBeGreaterThan(DAY_S - 120);
    expect(refused.body.error.retryAfter).toBeLessThanOrEqual(DAY_S);
    expect(await mailsTo(email)).toBe(3);
    // Other addresses are still invited, and the cap is this business's: another may invite the address.
    expect((await invite(t, { email: uniqueEmail('other') })).status).toBe(201);
    expect((await invite(await buildTeam(ctx.db), { email })).status).toBe(201);
  });

  it('When the oldest of three invites to an address is 23.5 hours old, then Retry-After is about half an hour; once it is older than a day, the address may be invited again', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('window');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = await invite(t, { email });
      ids.push(sent.body.id as string);
      await cancel(t, sent.body.id);
    }
    const age = (interval: string) =>
      ctx.db.pool.query(`UPDATE team_invites SET created_at = now() - $2::interval WHERE id = $1`, [ids[0], interval]);

    await age('23 hours 30 minutes');
    const refused = await invite(t, { email });
    expect(refused.status).toBe(429);
    expect(refused.body.error.retryAfter).toBeGreaterThan(30 * 60 - 120);
    expect(refused.body.error.retryAfter).toBeLessThanOrEqual(30 * 60);

    await age('24 hours 1 minute');
    expect((await invite(t, { email })).status).toBe(201);
  });

  it('When a business has sent its hourly number of invites, then the next one, to a new address, is a 429 for about an hour', async () => {
    const app = otherApp({ config: { INVITES_PER_BUSINESS_PER_HOUR: 4 } });
    const t = await buildTeam(ctx.db);
    const send = () =>
      app
        .request()
        .post(`${base(t)}/team/invite`)
        .set(as(t.ownerToken))
        .send({ email: uniqueEmail('hourly') });
    const first = await send();
    await cancel(t, first.body.id);
    const statuses = [first.status];
    for (let i = 0; i < 3; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([201, 201, 201, 201]);

    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^This business has sent 4 invites in the last hour/);
    expect(refused.body.error.retryAfter).toBeGreaterThan(3600 - 120);
    expect(refused.body.error.retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers['retry-after']).toBe(String(refused.body.error.retryAfter));

    // Another business is not held back by this one's invites.
    const other = await buildTeam(ctx.db);
    const theirs = await app
      .request()
      .post(`${base(other)}/team/invite`)
      .set(as(other.ownerToken))
      .send({ email: uniqueEmail('hourly') });
    expect(theirs.status).toBe(201);
  });
});
