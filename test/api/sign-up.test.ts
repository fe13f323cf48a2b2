import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { PASSWORD, postPageForm } from '../support/dashboard.js';
import { uniqueEmail } from '../support/factories.js';
import { useSmtpApp } from '../support/mail.js';

/** Self-service sign-up: off by default (a 404); with SIGNUP=open, a business once the mailed link is followed. */
const ctx = useTestApp();
const open = useSmtpApp(ctx, { config: { SIGNUP: 'open' } });
/** Its own failure budget: two refused credentials per address, then a 429. */
const limited = useSmtpApp(ctx, { config: { SIGNUP: 'open' }, failedAuthLimit: 2 });
const SLOW_MS = 90_000;
const signUp = (email: string) => ({ business_name: 'Bistro Sol', name: 'Ana Silva', email, password: PASSWORD });

describe('sign-up', () => {
  it('When sign-up is off (the default), then its pages are a 404, GET and POST', async () => {
    expect((await supertest(ctx.app).get('/app/sign-up')).status).toBe(404);
    expect((await supertest(ctx.app).post('/app/sign-up').type('form').send(signUp('a@example.com'))).status).toBe(404);
    expect((await supertest(ctx.app).get('/app/sign-up/confirm')).status).toBe(404);
  });

  it(
    'When SIGNUP=open and someone signs up, then nothing is created until the mailed link is followed, which creates the business, signs the owner in, and works once',
    async () => {
      const email = uniqueEmail('signup');
      const agent = supertest.agent(open.app);
      const asked = await postPageForm(agent, '/app/sign-up', '/app/sign-up', signUp(email));
      expect(asked.status).toBe(303);
      expect(asked.headers.location).toBe('/app/sign-up?sent=1');
      const sent = await agent.get(asked.headers.location as string);
      expect(sent.text).toContain('Check your inbox');
      expect(sent.text).not.toMatch(/fbn_/);
      expect((await ctx.db.pool.query('SELECT 1 FROM users WHERE email = $1', [email])).rows).toHaveLength(0);
      const message = await open.peer.waitFor(email);
      expect(message.text).toContain('https://dashboard.feedback.test/sign-up/confirm#token=fbn_');
      const token = /^fbn_[A-Za-z0-9_-]{43}$/m.exec(message.text)![0];
      const confirmed = await postPageForm(agent, '/app/sign-up/confirm', '/app/sign-up/confirm', { token });
      expect(confirmed.status).toBe(303);
      const home = await agent.get(confirmed.headers.location as string);
      expect(home.status).toBe(200);
      expect(home.text).toContain('Bistro Sol');
      expect(home.text).toContain('Ana Silva');
      const { rows } = await ctx.db.pool.query('SELECT email_verified_at FROM users WHERE email = $1', [email]);
      expect(rows[0].email_verified_at).not.toBeNull();
      const again = await postPageForm(supertest.agent(open.app), '/app/sign-up/confirm', '/app/sign-up/confirm', {
        token,
      });
      expect(again.status).toBe(401);
    },
    SLOW_MS,
  );

  it('When SIGNUP=open and a field is refused, then the form comes back with it marked, in words from the catalogue', async () => {
    const res = await postPageForm(supertest.agent(open.app), '/app/sign-up', '/app/sign-up', {
      ...signUp('not an address'),
      business_name: '',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="business_name"[^>]*aria-invalid="true"/);
    expect(res.text).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(res.text).not.toContain('Validation failed');
  });

  it('When wrong or made-up sign-up tokens are posted to the confirm page, then each costs the address one failure, and past the budget the page is the 429', async () => {
    const agent = supertest.agent(limited.app);
    const wrong = `fbn_${'x'.repeat(43)}`;
    for (const token of [wrong, 'not a token']) {
      const res = await postPageForm(agent, '/app/sign-up/confirm', '/app/sign-up/confirm', { token });
      expect(res.status).toBe(401);
      expect(res.text).toMatch(/id="token"[^>]*aria-invalid="true"/);
      expect(res.text).toContain('This confirmation link is invalid, expired or already used');
    }
    const third = await postPageForm(agent, '/app/sign-up/confirm', '/app/sign-up/confirm', { token: wrong });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('When the JSON operations are used, then a sign-up is a 202 and a wrong confirmation token a 401 INVALID_SIGNUP_TOKEN; with sign-up off, both are a 404', async () => {
    const asked = await supertest(open.app)
      .post('/auth/sign-up')
      .send(signUp(uniqueEmail('json')));
    expect(asked.status).toBe(202);
    const refused = await supertest(open.app)
      .post('/auth/sign-up/confirm')
      .send({ token: `fbn_${'y'.repeat(43)}` });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INVALID_SIGNUP_TOKEN');
    expect(
      (
        await supertest(ctx.app)
          .post('/auth/sign-up')
          .send(signUp(uniqueEmail('off')))
      ).status,
    ).toBe(404);
    expect((await supertest(ctx.app).post('/auth/sign-up/confirm').send({ token: 'fbn_x' })).status).toBe(404);
  });
});
