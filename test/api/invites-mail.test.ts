import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { MailSender } from '../../src/mail/mail.sender.js';
import { smtpTransport } from '../../src/mail/mail.transport.js';
import { newId } from '../../src/shared/ids.js';
import { useTestApp } from '../support/app.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';
import { reservablePort } from '../support/ports.js';
import { DASHBOARD_URL, tokenIn, useSmtpApp } from '../support/mail.js';

/** Invites by email, with SMTP configured: a real SMTP peer on loopback receives them. */
const ctx = useTestApp();
const mail = useSmtpApp(ctx, { poll: true });
type Team = Awaited<ReturnType<typeof buildTeam>>;
/** Tests that hash or verify several passwords (argon2id, 64 MiB each): seconds each on a busy 2-core machine. */
const SLOW_MS = 90_000;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const teamOf = async (t: Team) =>
  (await mail.request().get(`/businesses/${t.business.id}/team`).set(bearer(t.ownerToken))).body as {
    invites: { email: string; delivery: string }[];
    members: { email: string; role: string }[];
  };

async function deliveryOf(t: Team, email: string, until: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await teamOf(t)).invites.find((i) => i.email === email)?.delivery ?? 'missing';
    if (state === until || Date.now() > deadline) return state;
    await sleep(50);
  }
}

describe('invites by email', () => {
  it(
    'When someone is invited, then the token goes only to their email, with a link to the dashboard, and into no response or log line',
    async () => {
      const t = await buildTeam(ctx.db);
      const responses: Response[] = [];
      const keep = (res: Response) => (responses.push(res), res);
      keep(
        await mail
          .request()
          .patch(`/businesses/${t.business.id}`)
          .set(bearer(t.ownerToken))
          .send({ name: 'Café <Lune> & "Co"' }),
      );
      const email = uniqueEmail('invitee');
      const created = keep(
        await mail
          .request()
          .post(`/businesses/${t.business.id}/team/invite`)
          .set(bearer(t.admin.token))
          .send({ email, role: 'member' }),
      );
      expect(created.status).toBe(201);
      expect(Object.keys(created.body)).toEqual(['id', 'email', 'role', 'delivery', 'created_at', 'expires_at']);
      expect(created.body.delivery).toBe('pending');

      const message = await mail.peer.waitFor(email);
      const token = tokenIn(message, 'fbi_');
      expect(message.from).toMatch(/^"?Feedback"? <no-reply@feedback.test>$/);
      expect(message.subject).toBe('Join Café <Lune> & "Co" on Feedback');
      const link = `${DASHBOARD_URL}/accept-invite#token=${token}`;
      expect(message.text).toContain('invited you to join Café <Lune> & "Co" as a member.');
      expect(message.text).toContain(link);
      expect(message.html).toContain(`<a href="${link}">Accept the invite</a>`);
      expect(message.html).toContain('Café &lt;Lune&gt; &amp; &quot;Co&quot;');
      expect(message.html).not.toContain('<Lune>');
      expect(await deliveryOf(t, email, 'sent')).toBe('sent');

      const accepted = keep(
        await mail.request().post('/invites/accept').send({ token, name: 'Nia', password: 'a long password' }),
      );
      expect(accepted.status).toBe(201);
      const login = keep(await mail.request().post('/auth/login').send({ email, password: 'a long password' }));
      const me = keep(await mail.request().get('/auth/me').set(bearer(login.body.token)));
      expect(me.body.user).toMatchObject({ email, name: 'Nia', email_verified: true });
      keep(await mail.request().get(`/businesses/${t.business.id}/team`).set(bearer(t.ownerToken)));

      for (const res of responses) expect(res.text, `${res.status} ${res.text}`).not.toContain(token);
      expect(mail.logs.join('')).not.toContain(token);
      expect(mail.logs.join('')).not.toContain(token.slice(4, 20));
    },
    SLOW_MS,
  );

  it(
    'When the invited email already has an account, then accepting needs its session, and another user’s session is a 403',
    async () => {
      const t = await buildTeam(ctx.db);
      const other = await buildTeam(ctx.db);
      await mail
        .request()
        .post(`/businesses/${t.business.id}/team/invite`)
        .set(bearer(t.ownerToken))
        .send({ email: other.admin.email, role: 'admin' });
      const token = tokenIn(await mail.peer.waitFor(other.admin.email), 'fbi_');
      const accept = (session?: string) => {
        const req = mail.request().post('/invites/accept');
        return (session ? req.set(bearer(session)) : req).send({ token });
      };
      expect((await accept()).body.code).toBe('SIGN_IN_REQUIRED');
      expect((await accept(t.member.token)).status).toBe(403);
      expect((await accept('fbs_not-a-session')).status).toBe(401);
      const accepted = await accept(other.admin.token);
      expect(accepted.status).toBe(201);
      expect(accepted.body).toEqual({
        user: { id: other.admin.id, email: other.admin.email, name: null },
        business_id: t.business.id,
        role: 'admin',
      });
      const me = await mail.request().get('/auth/me').set(bearer(other.admin.token));
      expect(me.body.user.email_verified).toBe(true);
      expect(me.body.memberships.map((m: { business_id: string }) => m.business_id).sort()).toEqual(
        [t.business.id, other.business.id].sort(),
      );
      expect((await accept(other.admin.token)).status).toBe(401); // used
    },
    SLOW_MS,
  );

  it('When the mail server is down at invite time, then the invite shows pending, and the mail is delivered once the server is back', async () => {
    const t = await buildTeam(ctx.db);
    const email = uniqueEmail('later');
    await mail.peer.close();
    try {
      const created = await mail
        .request()
        .post(`/businesses/${t.business.id}/team/invite`)
        .set(bearer(t.ownerToken))
        .send({ email });
      expect(created.status).toBe(201); // sending never fails the request
      const retried = Date.now() + 10_000;
      while (!mail.logs.join('').includes('will retry') && Date.now() < retried) await sleep(50);
      expect(await deliveryOf(t, email, 'sent', 0)).toBe('pending');
    } finally {
      await mail.peer.listen();
    }
    const message = await mail.peer.waitFor(email);
    expect(message.text).toMatch(/fbi_/);
    expect(await deliveryOf(t, email, 'sent')).toBe('sent');
  });

  it('When retries are exhausted, then the message is failed and its token erased; a cancelled invite’s message is withdrawn', async () => {
    const logger = createLogger('silent');
    const nobody = `smtp://127.0.0.1:${await reservablePort()}`;
    // One attempt only, so no poll (this file's sender polls too) can take the message meanwhile.
    const sender = new MailSender(ctx.db.pool, smtpTransport(nobody, 'x@feedback.test'), logger, { maxAttempts: 1 });
    const id = newId();
    const token = 'fbi_token-in-a-message-that-never-goes';
    await sender.enqueue(ctx.db.pool, {
      id,
      recipient: uniqueEmail('nowhere'),
      subject: 's',
      text: token,
      html: token,
      lifetimeMs: 60_000,
    });
    const row = async () =>
      (
        await ctx.db.pool.query(
          'SELECT status::text, attempts, text_body, html_body, last_error FROM mail_outbox WHERE id = $1',
          [id],
        )
      ).rows[0];
    sender.deliver([id]);
    const deadline = Date.now() + 10_000;
    while ((await row()).status === 'pending' && Date.now() < deadline) await sleep(30);
    await sender.stop();
    expect(await row()).toMatchObject({ status: 'failed', attempts: 1, text_body: null, html_body: null });
    expect((await row()).last_error).toMatch(/ECONNREFUSED|connect/i);

    const t = await buildTeam(ctx.db);
    await mail.peer.close();
    try {
      const created = await mail
        .request()
        .post(`/businesses/${t.business.id}/team/invite`)
        .set(bearer(t.ownerToken))
        .send({ email: uniqueEmail('withdrawn') });
      await mail
        .request()
        .delete(`/businesses/${t.business.id}/team/invites/${created.body.id}`)
        .set(bearer(t.ownerToken));
      const { rows } = await ctx.db.pool.query(
        `SELECT o.status::text, o.text_body FROM team_invites i JOIN mail_outbox o ON o.id = i.mail_id WHERE i.id = $1`,
        [created.body.id],
      );
      expect(rows[0]).toEqual({ status: 'failed', text_body: null });
    } finally {
      await mail.peer.listen();
    }
  });
});
