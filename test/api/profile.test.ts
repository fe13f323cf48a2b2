import { describe, expect, it } from 'vitest';
import { addMember } from '../../src/users/user.service.js';
import { useTestApp } from '../support/app.js';
import { buildBusiness, uniqueEmail } from '../support/factories.js';
import { useSmtpApp } from '../support/mail.js';

/** The signed-in user's profile through /auth/me...: name, email change by confirmation, sessions. */
const ctx = useTestApp();
const mail = useSmtpApp(ctx);
const PASSWORD = 'granite teapots hum at dawn';
const SLOW_MS = 90_000;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function signedInUser() {
  const { business } = await buildBusiness(ctx.db);
  const email = uniqueEmail('profile');
  const user = await addMember(ctx.db.pool, business.id, { email, role: 'member', name: 'Lou', password: PASSWORD });
  const login = async (userAgent: string) => {
    const res = await mail
      .request()
      .post('/auth/login')
      .set('User-Agent', userAgent)
      .send({ email, password: PASSWORD });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };
  return { business, user, email, login };
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const confirmationToken = (text: string) => /^fbe_[A-Za-z0-9_-]{43}$/m.exec(text)?.[0] ?? '';

describe('the profile', () => {
  it(
    'When the name is changed, then /auth/me shows it; an empty one is refused',
    async () => {
      const u = await signedInUser();
      const token = await u.login('curl/8.5.0');
      const res = await mail.request().patch('/auth/me').set(bearer(token)).send({ name: 'Ana Silva' });
      expect(res.status).toBe(200);
      expect(res.body.user.name).toBe('Ana Silva');
      const me = await mail.request().get('/auth/me').set(bearer(token));
      expect(me.body.user.name).toBe('Ana Silva');
      const empty = await mail.request().patch('/auth/me').set(bearer(token)).send({ name: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body.errors[0].field).toBe('name');
    },
    SLOW_MS,
  );

  it(
    'When sessions are listed, then each says where (address, browser) and when it was last used, and which is this one',
    async () => {
      const u = await signedInUser();
      const other = await u.login(FIREFOX);
      const token = await u.login('curl/8.5.0');
      expect((await mail.request().get('/auth/me').set(bearer(other)).set('User-Agent', FIREFOX)).status).toBe(200);
      const res = await mail.request().get('/auth/me/sessions').set(bearer(token)).set('User-Agent', 'curl/8.5.0');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
      const current = res.body.data.find((s: { current: boolean }) => s.current);
      const firefox = res.body.data.find((s: { current: boolean }) => !s.current);
      expect(current.device).toBe('curl');
      expect(firefox.device).toBe('Firefox on Linux');
      expect(firefox.ip).toMatch(/127\.0\.0\.1|::1/);
      expect(Date.now() - Date.parse(firefox.last_used_at)).toBeLessThan(60_000);
    },
    SLOW_MS,
  );

  it(
    'When another session is signed out, then its token is refused at once; another user’s session is a 404',
    async () => {
      const u = await signedInUser();
      const other = await u.login(FIREFOX);
      const token = await u.login('curl/8.5.0');
      const stranger = await signedInUser();
      const strangerToken = await stranger.login('curl/8.5.0');
      const list = await mail.request().get('/auth/me/sessions').set(bearer(token));
      const otherId = list.body.data.find((s: { current: boolean }) => !s.current).id as string;
      const theirs = await mail.request().delete(`/auth/me/sessions/${otherId}`).set(bearer(strangerToken));
      expect(theirs.status).toBe(404);
      expect((await mail.request().get('/auth/me').set(bearer(other))).status).toBe(200);
      const ended = await mail.request().delete(`/auth/me/sessions/${otherId}`).set(bearer(token));
      expect(ended.status).toBe(204);
      expect((await mail.request().get('/auth/me').set(bearer(other))).status).toBe(401);
      expect((await mail.request().get(`/businesses/${u.business.id}/suggestions`).set(bearer(other))).status).toBe(
        401,
      );
      expect((await mail.request().get('/auth/me').set(bearer(token))).status).toBe(200);
      const again = await mail.request().delete(`/auth/me/sessions/${otherId}`).set(bearer(token));
      expect(again.status).toBe(404);
    },
    SLOW_MS,
  );

  it(
    'When the password is changed, then the current password is required and every other session is signed out',
    async () => {
      const u = await signedInUser();
      const other = await u.login(FIREFOX);
      const token = await u.login('curl/8.5.0');
      const wrong = await mail
        .request()
        .post('/auth/password')
        .set(bearer(token))
        .send({ current_password: 'not the password', new_password: 'copper kettles sing at noon' });
      expect(wrong.status).toBe(401);
      const changed = await mail
        .request()
        .post('/auth/password')
        .set(bearer(token))
        .send({ current_password: PASSWORD, new_password: 'copper kettles sing at noon' });
      expect(changed.status).toBe(204);
      expect((await mail.request().get('/auth/me').set(bearer(other))).status).toBe(401);
      const sessions = await mail.request().get('/auth/me/sessions').set(bearer(token));
      expect(sessions.body.data.map((s: { current: boolean }) => s.current)).toEqual([true]);
    },
    SLOW_MS,
  );

  it(
    'When the email is changed, then the new address gets a link, and the address changes only once it is followed, once',
    async () => {
      const u = await signedInUser();
      const token = await u.login('curl/8.5.0');
      const newEmail = uniqueEmail('moved');
      const asked = await mail.request().post('/auth/me/email').set(bearer(token)).send({ email: newEmail });
      expect(asked.status).toBe(202);
      const message = await mail.peer.waitFor(newEmail);
      expect(message.text).toContain('https://dashboard.feedback.test/confirm-email#token=fbe_');
      expect((await mail.request().get('/auth/me').set(bearer(token))).body.user.email).toBe(u.email);
      const confirm = confirmationToken(message.text);
      expect((await mail.request().post('/auth/email-confirm').send({ token: confirm })).status).toBe(204);
      const me = await mail.request().get('/auth/me').set(bearer(token));
      expect(me.body.user.email).toBe(newEmail);
      expect(me.body.user.email_verified).toBe(true);
      expect((await mail.request().post('/auth/email-confirm').send({ token: confirm })).status).toBe(401);
      const login = await mail.request().post('/auth/login').send({ email: newEmail, password: PASSWORD });
      expect(login.status).toBe(200);
    },
    SLOW_MS,
  );

  it(
    'When the new address already has an account, then it is a 409 and nothing is sent',
    async () => {
      const u = await signedInUser();
      const token = await u.login('curl/8.5.0');
      const taken = await signedInUser();
      const res = await mail.request().post('/auth/me/email').set(bearer(token)).send({ email: taken.email });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ field: 'email', code: 'email_taken' });
      expect(mail.peer.to(taken.email)).toHaveLength(0);
    },
    SLOW_MS,
  );
});
