import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import {
  buildOwnerWithPassword,
  cookieValue,
  formTokenIn,
  PASSWORD,
  setCookie,
  signInThroughPage,
} from '../support/dashboard.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';
import { tokenIn, useSmtpApp } from '../support/mail.js';

/** Accepting invites and resetting passwords through the dashboard's pages, the emails on a real SMTP peer. */
const ctx = useTestApp();
const mail = useSmtpApp(ctx);
const ORIGIN = 'http://localhost:3000';
/** argon2id hashes (64 MiB each): seconds on a busy 2-core machine. */
const SLOW_MS = 90_000;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function invite(ownerToken: string, businessId: string, email: string, role = 'member') {
  const res = await mail
    .request()
    .post(`/businesses/${businessId}/team/invite`)
    .set(bearer(ownerToken))
    .send({ email, role });
  expect(res.status).toBe(201);
  return tokenIn(await mail.peer.waitFor(email), 'fbi_');
}

/** Posts a page's form as the browser would: its token, from the service's origin. */
async function postForm(agent: supertest.Agent, page: string, action: string, fields: Record<string, string>) {
  const form = await agent.get(page);
  return agent
    .post(action)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: formTokenIn(form.text), ...fields });
}

describe('accepting an invite in the dashboard', () => {
  it(
    'When an invitee without an account chooses a name and a password, then they are signed in as a member of the business',
    async () => {
      const t = await buildTeam(ctx.db);
      const email = uniqueEmail('invitee');
      const token = await invite(t.ownerToken, t.business.id, email);
      const agent = supertest.agent(mail.app);
      const accepted = await postForm(agent, '/app/accept-invite', '/app/accept-invite', {
        intent: 'create',
        token,
        name: 'Léa Bernard',
        password: PASSWORD,
      });
      expect(accepted.status, accepted.text.slice(0, 300)).toBe(303);
      expect(accepted.headers.location).toBe(`/app/b/${t.business.id}`);
      const home = await agent.get(accepted.headers.location as string);
      expect(home.status).toBe(200);
      expect(home.text).toContain('Léa Bernard');
      expect(home.text).toContain('(member)');

      const again = await postForm(supertest.agent(mail.app), '/app/accept-invite', '/app/accept-invite', {
        intent: 'create',
        token,
        name: 'Someone Else',
        password: PASSWORD,
      });
      expect(again.status).toBe(401);
      expect(again.headers['content-type']).toMatch(/^text\/html/);
      expect(again.text).toMatch(/id="token"[^>]*aria-invalid="true"/);
      expect(again.text).toContain('invalid, expired or already used');
    },
    SLOW_MS,
  );

  it('When the chosen password is too short or the name is missing, then the form comes back with those fields marked', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('invitee');
    const token = await invite(t.ownerToken, t.business.id, email);
    const res = await postForm(supertest.agent(mail.app), '/app/accept-invite', '/app/accept-invite', {
      intent: 'create',
      token,
      name: '   ',
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/id="name"[^>]*aria-invalid="true"/);
    expect(res.text).toMatch(/id="password"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The password must be at least 12 characters.');
    expect(res.text).toContain(`value="${token}"`);
    // Nothing was used up: the invite still creates the account.
    const ok = await postForm(supertest.agent(mail.app), '/app/accept-invite', '/app/accept-invite', {
      intent: 'create',
      token,
      name: 'Léa',
      password: PASSWORD,
    });
    expect(ok.status).toBe(303);
  });

  it(
    'When the invited email already has an account, then the page asks to sign in, and signing in there joins the business',
    async () => {
      const other = await buildOwnerWithPassword(ctx.db);
      const t = await buildTeam(ctx.db);
      const token = await invite(t.ownerToken, t.business.id, other.email, 'admin');
      const agent = supertest.agent(mail.app);
      const asked = await postForm(agent, '/app/accept-invite', '/app/accept-invite', {
        intent: 'create',
        token,
        name: 'Who',
        password: PASSWORD,
      });
      expect(asked.status).toBe(401);
      expect(asked.text).toContain('already has an account: sign in with it to accept');
      expect(asked.text).toMatch(/value="sign-in"/);

      const joined = await agent
        .post('/app/accept-invite')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: formTokenIn(asked.text), intent: 'sign-in', token, email: other.email, password: PASSWORD });
      expect(joined.status).toBe(303);
      expect(joined.headers.location).toBe(`/app/b/${t.business.id}`);
      const home = await agent.get(joined.headers.location as string);
      expect(home.text).toContain('(admin)');
    },
    SLOW_MS,
  );

  it('When a signed-in user accepts an invite made for another address, then the page says so and nothing is joined', async () => {
    const t = await buildTeam(ctx.db);
    const token = await invite(t.ownerToken, t.business.id, uniqueEmail('someone'));
    const signedIn = await buildTeam(ctx.db);
    const agent = supertest.agent(mail.app).set('Cookie', `fb_session=${signedIn.member.token}`);
    const res = await postForm(agent, '/app/accept-invite', '/app/accept-invite', { intent: 'join', token });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('This invite is for another email address');
    expect((await agent.get(`/app/b/${t.business.id}`)).status).toBe(403);
  });
});

describe('a forgotten password in the dashboard', () => {
  it(
    'When an owner asks for a reset, then the email’s token sets a new password, ends every session, and the sign-in page says to sign in with it',
    async () => {
      const owner = await buildOwnerWithPassword(ctx.db);
      const before = supertest.agent(mail.app);
      await signInThroughPage(before, ORIGIN, owner.email, PASSWORD);
      expect((await before.get(`/app/b/${owner.business.id}`)).status).toBe(200);

      const agent = supertest.agent(mail.app);
      const asked = await postForm(agent, '/app/forgot-password', '/app/forgot-password', { email: owner.email });
      expect(asked.status).toBe(303);
      expect(asked.headers.location).toBe('/app/forgot-password?sent=1');
      expect((await agent.get(asked.headers.location!)).text).toContain(
        'a message with a link to choose a new password is on its way',
      );
      // An address without an account gets the very same answer: the page never tells.
      const unknown = await postForm(agent, '/app/forgot-password', '/app/forgot-password', {
        email: uniqueEmail('nobody'),
      });
      expect(unknown.status).toBe(303);
      expect(unknown.headers.location).toBe('/app/forgot-password?sent=1');

      const message = await mail.peer.waitFor(owner.email);
      expect(message.text).toContain('/reset-password#token=');
      const token = tokenIn(message, 'fbr_');
      const newPassword = 'violet lanterns drift upstream';
      const reset = await postForm(agent, '/app/reset-password', '/app/reset-password', {
        token,
        password: newPassword,
      });
      expect(reset.status).toBe(303);
      expect(reset.headers.location).toBe('/app/sign-in?notice=reset');
      expect((await agent.get(reset.headers.location!)).text).toContain('Your new password is set');
      expect((await before.get(`/app/b/${owner.business.id}`)).status).toBe(303);

      const old = await signInThroughPage(supertest.agent(mail.app), ORIGIN, owner.email, PASSWORD);
      expect(old.status).toBe(401);
      const fresh = await signInThroughPage(supertest.agent(mail.app), ORIGIN, owner.email, newPassword);
      expect(fresh.status).toBe(303);
      expect(cookieValue(setCookie(fresh, 'fb_session'))).toMatch(/^fbs_/);
    },
    SLOW_MS,
  );

  it('When the reset token is wrong or the email malformed, then the form comes back with that field marked', async () => {
    const agent = supertest.agent(mail.app);
    const badToken = await postForm(agent, '/app/reset-password', '/app/reset-password', {
      token: 'fbr_not-a-real-token',
      password: 'violet lanterns drift upstream',
    });
    expect(badToken.status).toBe(401);
    expect(badToken.text).toMatch(/id="token"[^>]*aria-invalid="true"/);
    const badEmail = await postForm(agent, '/app/forgot-password', '/app/forgot-password', { email: 'nope' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.text).toMatch(/id="email"[^>]*aria-invalid="true"/);
  });
});
