import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildOwnerWithPassword, PASSWORD, postPageForm, signInThroughPage } from '../support/dashboard.js';

/** /app/profile: each form runs its /auth/me... operation through the user's browser session. */
const ctx = useTestApp();
const ORIGIN = 'http://localhost:3000';
const SLOW_MS = 90_000;

async function signedIn(userAgent: string) {
  const o = await buildOwnerWithPassword(ctx.db);
  const agent = supertest.agent(ctx.app).set('User-Agent', userAgent);
  expect((await signInThroughPage(agent, ORIGIN, o.email, PASSWORD)).status).toBe(303);
  return { ...o, agent };
}

describe('the profile page', () => {
  it(
    'When the name is saved, then the page and the header show it; an empty one comes back marked',
    async () => {
      const o = await signedIn('curl/8.5.0');
      const saved = await postPageForm(o.agent, '/app/profile', '/app/profile/name', { name: 'Ana Silva' });
      expect(saved.status).toBe(303);
      expect(saved.headers.location).toBe('/app/profile?saved=name');
      const page = await o.agent.get(saved.headers.location as string);
      expect(page.text).toContain('Your name is saved.');
      expect(page.text).toContain('>Ana Silva</a>');
      const empty = await postPageForm(o.agent, '/app/profile', '/app/profile/name', { name: ' ' });
      expect(empty.status).toBe(400);
      expect(empty.text).toMatch(/id="name"[^>]*aria-invalid="true"/);
    },
    SLOW_MS,
  );

  it(
    'When the current password is wrong, then the form comes back marked; when right, the other sessions are signed out and this one stays',
    async () => {
      const o = await signedIn('curl/8.5.0');
      const other = supertest.agent(ctx.app);
      expect((await signInThroughPage(other, ORIGIN, o.email, PASSWORD)).status).toBe(303);
      const wrong = await postPageForm(o.agent, '/app/profile', '/app/profile/password', {
        current_password: 'not my password at all',
        new_password: 'copper kettles sing at noon',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toMatch(/id="current_password"[^>]*aria-invalid="true"/);
      const changed = await postPageForm(o.agent, '/app/profile', '/app/profile/password', {
        current_password: PASSWORD,
        new_password: 'copper kettles sing at noon',
      });
      expect(changed.status).toBe(303);
      expect((await o.agent.get('/app/profile')).status).toBe(200);
      const signedOut = await other.get('/app/profile');
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.location).toMatch(/^\/app\/sign-in/);
    },
    SLOW_MS,
  );

  it(
    'When another session is signed out from the list, then that browser is signed out at once',
    async () => {
      const o = await signedIn('curl/8.5.0');
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
      const other = supertest.agent(ctx.app).set('User-Agent', firefox);
      expect((await signInThroughPage(other, ORIGIN, o.email, PASSWORD)).status).toBe(303);
      expect((await other.get('/app/profile')).status).toBe(200);
      const page = await o.agent.get('/app/profile');
      expect(page.text).toContain('Firefox on Linux');
      expect(page.text).toContain('(this browser)');
      const id = /profile\/sessions\/([0-9a-f-]{36})\/sign-out/.exec(page.text)?.[1];
      expect(id).toBeDefined();
      const ended = await postPageForm(o.agent, '/app/profile', `/app/profile/sessions/${id}/sign-out`);
      expect(ended.status).toBe(303);
      expect((await other.get('/app/profile')).status).toBe(303);
      expect((await o.agent.get('/app/profile')).status).toBe(200);
    },
    SLOW_MS,
  );
});
