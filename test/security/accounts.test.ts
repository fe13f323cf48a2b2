import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/users/password.js';
import { useOtherApps, useTestApp } from '../support/app.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';
import { tokenIn, useSmtpApp } from '../support/mail.js';

/**
 * The four attacks on accounts that an outside probe found (issue "Accounts that prove who they
 * are"), each as the attacker would try it. The file's own app is in development mail mode; `mail`
 * is the same service with SMTP configured, as in production.
 */
const ctx = useTestApp();
const mail = useSmtpApp(ctx);
const otherApp = useOtherApps(ctx);
type Team = Awaited<ReturnType<typeof buildTeam>>;
/** Tests that hash or verify several passwords (argon2id, 64 MiB each): seconds each on a busy 2-core machine. */
const SLOW_MS = 90_000;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const login = (email: string, password: string) => ctx.request().post('/auth/login').send({ email, password });
const members = async (t: Team) =>
  (await ctx.request().get(`/businesses/${t.business.id}/team`).set(bearer(t.ownerToken))).body.members.map(
    (m: { email: string }) => m.email.toLowerCase(),
  ) as string[];

describe('1. taking over a future account by accepting its invite', () => {
  it(
    'When an admin invites an email that is not theirs, then the token reaches only that mailbox, and an account registered earlier by someone else cannot capture a later invite',
    async () => {
      const victim = uniqueEmail('victim');
      const attackerPassword = 'attacker chosen password';
      const victimPassword = 'the real person’s password';

      // Before SMTP was configured (development mail mode), business A's admin invited the victim's
      // address and accepted it with a password of their choice.
      const a = await buildTeam(ctx.db);
      const early = await ctx
        .request()
        .post(`/businesses/${a.business.id}/team/invite`)
        .set(bearer(a.admin.token))
        .send({ email: victim });
      expect(early.body.token).toMatch(/^fbi_/); // development mail mode returns it, and says so
      const squat = await ctx
        .request()
        .post('/invites/accept')
        .send({ token: early.body.token, name: 'Attacker', password: attackerPassword });
      expect(squat.status).toBe(201);

      // With SMTP configured, business B's owner invites the same address: the token is not in the
      // response, only in the victim's mailbox.
      const b = await buildTeam(ctx.db);
      const invite = await mail
        .request()
        .post(`/businesses/${b.business.id}/team/invite`)
        .set(bearer(b.ownerToken))
        .send({ email: victim, role: 'admin' });
      expect(invite.status).toBe(201);
      expect(invite.body).not.toHaveProperty('token');
      const token = tokenIn(await mail.peer.waitFor(victim), 'fbi_');
      expect(invite.text).not.toContain(token);

      // The real person accepts with their own password: the account exists, so this needs its
      // session; the token alone neither joins B nor reveals the account.
      const tokenOnly = await mail
        .request()
        .post('/invites/accept')
        .send({ token, name: 'Victim', password: victimPassword });
      expect(tokenOnly.status).toBe(401);
      expect(tokenOnly.body.code).toBe('SIGN_IN_REQUIRED');
      expect(await members(b)).not.toContain(victim.toLowerCase());

      // The attacker's password signs in, but to no business of B's.
      const attacker = await login(victim, attackerPassword);
      expect(attacker.status).toBe(200);
      expect(
        (await ctx.request().get(`/businesses/${b.business.id}/team`).set(bearer(attacker.body.token))).status,
      ).toBe(403);

      // The real person reclaims the address by email: the attacker's session and password stop working.
      expect((await mail.request().post('/auth/password-reset').send({ email: victim })).status).toBe(202);
      const resetToken = tokenIn(await mail.peer.waitFor(victim, { count: 2 }), 'fbr_');
      const confirm = await mail
        .request()
        .post('/auth/password-reset/confirm')
        .send({ token: resetToken, password: victimPassword });
      expect(confirm.status).toBe(204);
      expect((await ctx.request().get('/auth/me').set(bearer(attacker.body.token))).status).toBe(401);
      expect((await login(victim, attackerPassword)).status).toBe(401);

      // Signed in, the real person accepts B's invite: they, and only they, are admin of B.
      const session = await login(victim, victimPassword);
      expect(session.status).toBe(200);
      const accepted = await mail.request().post('/invites/accept').set(bearer(session.body.token)).send({ token });
      expect(accepted.status).toBe(201);
      expect(accepted.body).toMatchObject({ business_id: b.business.id, role: 'admin' });
      expect(await members(b)).toContain(victim.toLowerCase());
    },
    SLOW_MS,
  );
});

describe('2. an API key minting a principal with more rights than itself', () => {
  it('When a write key invites or cancels an invite, then it is a 403; it may still read the team', async () => {
    const t = await buildTeam(ctx.db);
    const path = `/businesses/${t.business.id}/team`;
    const invite = await ctx
      .request()
      .post(`${path}/invite`)
      .set('X-API-Key', t.write)
      .send({ email: uniqueEmail('evil'), role: 'admin' });
    expect(invite.status).toBe(403);
    expect(invite.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', message: expect.stringMatching(/cannot invite/) });
    expect(JSON.stringify(invite.body)).not.toMatch(/fbi_/);

    const pending = await ctx
      .request()
      .post(`${path}/invite`)
      .set(bearer(t.ownerToken))
      .send({ email: uniqueEmail('someone') });
    const cancel = await ctx.request().delete(`${path}/invites/${pending.body.id}`).set('X-API-Key', t.write);
    expect(cancel.status).toBe(403);

    const team = await ctx.request().get(path).set('X-API-Key', t.write);
    expect(team.status).toBe(200);
    expect(team.body.invites).toHaveLength(1);
  });
});

describe('3. an invite token revealing and enrolling an existing account', () => {
  it('When a token-only caller accepts an invite for an email that has an account, then it is a 401 that reveals nothing and adds no membership', async () => {
    const holder = await buildTeam(ctx.db);
    const inviter = await buildTeam(ctx.db);
    const created = await ctx
      .request()
      .post(`/businesses/${inviter.business.id}/team/invite`)
      .set(bearer(inviter.ownerToken))
      .send({ email: holder.admin.email, role: 'member' });
    const res = await ctx
      .request()
      .post('/invites/accept')
      .send({ token: created.body.token, name: 'Whoever', password: 'any password at all' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIGN_IN_REQUIRED');
    expect(res.text).not.toContain(holder.admin.id);
    expect(res.text.toLowerCase()).not.toContain(holder.admin.email.toLowerCase());
    expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message', 'requestId', 'statusCode']);
    expect(await members(inviter)).not.toContain(holder.admin.email.toLowerCase());

    // A session of someone else does not do either.
    const stranger = await ctx
      .request()
      .post('/invites/accept')
      .set(bearer(inviter.member.token))
      .send({ token: created.body.token });
    expect(stranger.status).toBe(403);
    expect(stranger.text).not.toContain(holder.admin.id);
    expect(await members(inviter)).not.toContain(holder.admin.email.toLowerCase());
  });
});

describe('4. bogus invite tokens burning CPU outside any failure budget', () => {
  it('When bogus invite and reset tokens are sent, then argon2 never runs for them and they use up the failure budget of failed sign-ins', async () => {
    const budget = 7;
    const app = otherApp({ failedAuthLimit: budget });
    const bogus = () => `fbi_${randomBytes(32).toString('base64url')}`;
    const accept = (token: string) =>
      app.request().post('/invites/accept').send({ token, name: 'Bot', password: 'a valid new password' });

    // The first request pays for warming up (the password list, the contract check's schemas).
    expect((await accept(bogus())).status).toBe(401);
    // CPU time, not wall time: the machine may be busy with other work.
    const calibration = process.cpuUsage();
    await hashPassword('calibration password');
    const oneHash = process.cpuUsage(calibration);
    const before = process.cpuUsage();
    for (const token of [bogus(), bogus(), bogus(), 'fbi_not-even-well-formed']) {
      const res = await accept(token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_INVITE');
    }
    const spent = process.cpuUsage(before);
    // Four argon2id hashes would cost about four times one; lookups by digest cost a small fraction.
    expect(spent.user + spent.system).toBeLessThan(2 * (oneHash.user + oneHash.system));

    const resetConfirm = await app
      .request()
      .post('/auth/password-reset/confirm')
      .send({ token: `fbr_${randomBytes(32).toString('base64url')}`, password: 'a valid new password' });
    expect(resetConfirm.status).toBe(401);
    const failedLogin = await app
      .request()
      .post('/auth/login')
      .send({ email: uniqueEmail('x'), password: 'wrong one' });
    expect(failedLogin.status).toBe(401);

    // Seven failures of three kinds: one budget, now spent, for every credential from this address.
    expect((await accept(bogus())).status).toBe(429);
    const t = await buildTeam(ctx.db);
    const real = await app.request().post('/auth/login').send({ email: t.admin.email, password: 'whatever it is' });
    expect(real.status).toBe(429);
  });
});
