import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildOwnerWithPassword, postPageForm, signInThroughPage } from '../support/dashboard.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';

/** The team, invite and sign-in forms: each runs its declared operation; refusals come back in the catalogue's words. */
const ctx = useTestApp();
const ORIGIN = 'http://localhost:3000';
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const teamPage = (businessId: string) => `/app/b/${businessId}/team`;

function expectPage(res: supertest.Response, status: number) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
}

describe('the team forms', () => {
  it('When an admin invites and cancels, then each post redirects to the page saying what happened', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.admin.token);
    const from = teamPage(t.business.id);
    const invited = await postPageForm(agent, from, `${from}/invites`, { email: uniqueEmail('x'), role: 'member' });
    // Development mail mode: the page itself shows the link, once (201); with SMTP it would be a 303.
    expectPage(invited, 201);
    expect(invited.text).toContain('The invite is on its way.');
    const id = /team\/invites\/([0-9a-f-]{36})\/cancel/.exec(invited.text)![1]!;
    const cancelled = await postPageForm(agent, from, `${from}/invites/${id}/cancel`);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.location).toBe(`${from}?saved=cancelled`);
    expect((await agent.get(cancelled.headers.location!)).text).toContain('The invite is cancelled.');
    const again = await postPageForm(agent, from, `${from}/invites/${id}/cancel`);
    expectPage(again, 404);
    expect(again.text).toContain('What you asked for does not exist, or is no longer here.');
  });

  it('When a member posts an invite or a role change, then the page refuses in words, not with the error’s message', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    const from = teamPage(t.business.id);
    const invite = await postPageForm(agent, from, `${from}/invites`, { email: uniqueEmail('x'), role: 'member' });
    expectPage(invite, 403);
    expect(invite.text).toContain('Your role in this business does not allow that');
    expect(invite.text).not.toContain('This operation needs the owner or admin role');
    const role = await postPageForm(agent, from, `${from}/members/${t.admin.id}/role`, { role: 'member' });
    expectPage(role, 403);
  });

  it('When a member leaves, then the post redirects to the start, and the business is closed to them', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    const leave = `${teamPage(t.business.id)}/members/${t.member.id}/remove`;
    const left = await postPageForm(agent, leave, leave);
    expect(left.status).toBe(303);
    expect(left.headers.location).toBe('/app');
    expectPage(await agent.get(`/app/b/${t.business.id}`), 403);
  });

  it('When an owner picks no role, then the member’s row says to choose one', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.ownerToken);
    const from = teamPage(t.business.id);
    const res = await postPageForm(agent, from, `${from}/members/${t.admin.id}/role`, { role: 'boss' });
    expectPage(res, 400);
    expect(res.text).toContain(`id="refusal-${t.admin.id}"`);
    expect(res.text).toContain('Choose one of the options for The role.');
  });
});

describe('the forms before a session', () => {
  it('When the sign-in form is empty or wrong, then it comes back with the field marked in words', async () => {
    const { email } = await buildOwnerWithPassword(ctx.db);
    const empty = await postPageForm(supertest.agent(ctx.app), '/app/sign-in', '/app/sign-in', {
      email: '',
      password: '',
    });
    expectPage(empty, 400);
    expect(empty.text).toContain('Email does not look right.');
    expect(empty.text).toContain('Password is required.');
    const wrong = await signInThroughPage(supertest.agent(ctx.app), ORIGIN, email, 'not the password at all');
    expectPage(wrong, 401);
    expect(wrong.text).toContain('The email or the password is not right.');
  });

  it('When an invite token is not one, then the accept form marks it in words', async () => {
    const res = await postPageForm(supertest.agent(ctx.app), '/app/accept-invite', '/app/accept-invite', {
      token: 'fbi_not-a-real-token',
      name: 'Léa Bernard',
      password: 'violet lanterns drift upstream',
    });
    expectPage(res, 401);
    expect(res.text).toMatch(/id="token"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('This invite link is invalid, expired or already used: ask for a new invite.');
  });
});
