import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { PASSWORD, postPageForm } from '../support/dashboard.js';
import { uniqueEmail } from '../support/factories.js';
import { useSmtpApp } from '../support/mail.js';

/** Self-service sign-up: off by default (a 404); with SIGNUP=open, a business once the mailed link is followed. */
const ctx = useTestApp();
const open = useSmtpApp(ctx, { config: { SIGNUP: 'open' } });
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
      expect(asked.status).toBe(202);
      expect(asked.text).not.toMatch(/fbn_/);
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
});
