import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/config/logger.js';
import { addMember } from '../../src/users/user.service.js';
import { useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { buildApiKey, buildBusiness, buildTeam, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();
const PASSWORD = 'correct horse battery';

async function userWithPassword() {
  const { business } = await buildBusiness(ctx.db);
  const email = uniqueEmail('login');
  const user = await addMember(ctx.db.pool, business.id, { email, role: 'admin', name: 'Lou', password: PASSWORD });
  return { business, user, email };
}

describe('dashboard sessions', () => {
  it('When the password is right, then login returns a 12-hour token that works on the business family', async () => {
    const { business, user, email } = await userWithPassword();
    const res = await ctx.request().post('/auth/login').send({ email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['token', 'expires_at', 'user']);
    expect(res.body.user).toEqual({ id: user.id, email, name: 'Lou' });
    expect(res.body.token).toMatch(/^fbs_[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const list = await ctx
      .request()
      .get(`/businesses/${business.id}/suggestions`)
      .set('Authorization', `Bearer ${res.body.token}`);
    expect(list.status).toBe(200);
    const { rows } = await ctx.db.pool.query('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    const stored = await ctx.db.pool.query(
      'SELECT count(*)::int AS n FROM sessions WHERE token_digest = sha256($1::bytea)',
      [Buffer.from(res.body.token)],
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('When the email is unknown or the password wrong, then both are the same 401', async () => {
    const { email } = await userWithPassword();
    const wrongPassword = await ctx.request().post('/auth/login').send({ email, password: 'wrong password' });
    const unknownEmail = await ctx
      .request()
      .post('/auth/login')
      .send({ email: uniqueEmail('nobody'), password: PASSWORD });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(wrongPassword.body)).toEqual(strip(unknownEmail.body));
  });

  it('When a user without a password tries to log in, then it is the same 401', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().post('/auth/login').send({ email: t.member.email, password: 'anything at all' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid email or password');
  });

  // Seven argon2 hashes or checks (slow on purpose) and two throttle delays: up to 10 s measured with two
  // suites at once on a 2-core machine, over 20 s with more work besides.
  it('When failures repeat for one email, then further attempts are slowed down, whether or not the email exists', async () => {
    const app = createApp({
      db: ctx.db,
      logger: createLogger('silent'),
      loginThrottle: { freeFailures: 2, baseDelayMs: 400, maxDelayMs: 1_000, windowMs: 60_000, maxTracked: 100 },
    });
    for (const email of [(await userWithPassword()).email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 2; i++)
        await checked(supertest.agent(app)).post('/auth/login').send({ email, password: 'nope nope' });
      const started = Date.now();
      const slowed = await checked(supertest.agent(app)).post('/auth/login').send({ email, password: 'nope nope' });
      expect(slowed.status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    }
  }, 60_000);

  it('When the user logs out, then the token stops working at once', async () => {
    const { business, email } = await userWithPassword();
    const { body } = await ctx.request().post('/auth/login').send({ email, password: PASSWORD });
    const auth = { Authorization: `Bearer ${body.token}` };
    expect((await ctx.request().post('/auth/logout').set(auth)).status).toBe(204);
    expect((await ctx.request().get(`/businesses/${business.id}/team`).set(auth)).status).toBe(401);
    expect((await ctx.request().post('/auth/logout').set(auth)).status).toBe(401);
  });

  it('When the session has expired, then it is a 401', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      t.member.id,
    ]);
    const res = await ctx
      .request()
      .get(`/businesses/${t.business.id}/team`)
      .set('Authorization', `Bearer ${t.member.token}`);
    expect(res.status).toBe(401);
  });

  it('When a session token is used on /api/v1, then it is a 401: that family is for API keys', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions').set('Authorization', `Bearer ${t.ownerToken}`);
    expect(res.status).toBe(401);
  });

  it('When /auth/me is called, then it shows the user and their businesses, never secrets', async () => {
    const { business, user, email } = await userWithPassword();
    const { body } = await ctx.request().post('/auth/login').send({ email, password: PASSWORD });
    const me = await ctx.request().get('/auth/me').set('Authorization', `Bearer ${body.token}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { id: user.id, email, name: 'Lou' },
      memberships: [{ business_id: business.id, role: 'admin' }],
    });
    expect(JSON.stringify(me.body)).not.toMatch(/argon2|password|digest/);
    expect((await ctx.request().get('/auth/me')).status).toBe(401);
  });

  it.each([
    [{}, 'email'],
    [{ email: 'not-an-email', password: 'x' }, 'email'],
    [{ email: 'a@example.com' }, 'password'],
    [{ email: 'a@example.com', password: 'x', remember: true }, 'remember'],
  ])('When the login body is %j, then it is a 400 naming the field', async (body, field) => {
    const res = await ctx.request().post('/auth/login').send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('When a free-plan business key calls the business family, then the plan rule gives a 403', async () => {
    const { business } = await buildBusiness(ctx.db, { plan: 'free' });
    const { key } = await buildApiKey(ctx.db, business.id);
    const res = await ctx.request().get(`/businesses/${business.id}/suggestions`).set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Business plan/);
  });

  it('When a key is sent as X-API-Key on the business family, then it works too', async () => {
    const t = await buildTeam(ctx.db);
    expect((await ctx.request().get(`/businesses/${t.business.id}/suggestions`).set('X-API-Key', t.read)).status).toBe(
      200,
    );
  });

  it('When a session token is sent as X-API-Key, then it is a 401: sessions go in Authorization: Bearer, as documented', async () => {
    const t = await buildTeam(ctx.db);
    for (const path of [`/businesses/${t.business.id}/suggestions`, '/auth/me']) {
      const res = await ctx.request().get(path).set('X-API-Key', t.member.token);
      expect(res.status, path).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await ctx.request().post('/auth/logout').set('X-API-Key', t.member.token)).status).toBe(401);
    // Still signed in: the same token in the documented header works.
    const me = await ctx.request().get('/auth/me').set('Authorization', `Bearer ${t.member.token}`);
    expect(me.status).toBe(200);
  });
});
