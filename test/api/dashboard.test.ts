import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import {
  buildOwnerWithPassword,
  cookieValue,
  formTokenIn,
  PASSWORD,
  setCookie,
  postPageForm,
  signInThroughPage,
} from '../support/dashboard.js';
import { buildTeam, buildTenant, buildUser, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();

/** The service's own origin as the app is configured (PUBLIC_BASE_URL's default): what its pages post from. */
const ORIGIN = 'http://localhost:3000';

const browser = () => supertest.agent(ctx.app);
/** A browser holding a session cookie. */
const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);

/** What every page of the dashboard must be: HTML, never JSON, never a stack. */
function expectPage(res: supertest.Response, status: number) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/);
}

describe('signing in and out', () => {
  it('When a browser without a session opens a business page, then it signs in and lands on that page', async () => {
    const { business, email } = await buildOwnerWithPassword(ctx.db);
    const agent = browser();
    const page = `/app/b/${business.id}/`;
    const away = await agent.get(page);
    expect(away.status).toBe(303);
    expect(away.headers.location).toBe(`/app/sign-in?next=${encodeURIComponent(page)}`);

    const form = await agent.get(away.headers.location as string);
    expectPage(form, 200);
    expect(form.text).toMatch(/<label for="email">Email<\/label>/);
    expect(form.text).toMatch(/<label for="password">Password<\/label>/);
    expect(form.text).toMatch(/<button type="submit">Sign in<\/button>/);

    const signedIn = await signInThroughPage(agent, ORIGIN, email, PASSWORD, page);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(page);
    const cookie = setCookie(signedIn, 'fb_session')!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/app/);
    expect(cookie).not.toMatch(/; Secure/);

    const home = await agent.get(page);
    expectPage(home, 200);
    expect(home.text).toContain(business.name);
    expect(home.headers['cache-control']).toBe('no-store');
  });

  it('When the service is behind https, then the session cookie is Secure', async () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 1000, failedAuthLimit: 1000, logger });
    const app = createApp({ db: ctx.db, logger, rateLimiters, config: { TRUST_PROXY: 'loopback' } });
    const { email } = await buildOwnerWithPassword(ctx.db);
    const agent = supertest.agent(app);
    const form = await agent.get('/app/sign-in').set('X-Forwarded-Proto', 'https');
    expect(setCookie(form, 'fb_form')).toMatch(/; Secure/);
    const signedIn = await agent
      .post('/app/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', `fb_form=${cookieValue(setCookie(form, 'fb_form'))}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(form.text), email, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(setCookie(signedIn, 'fb_session')).toMatch(/; HttpOnly; Secure; SameSite=Lax/);
    await rateLimiters.close();
  });

  it('When a browser signs out, then its session ends on the server: the cookie and the same Bearer token sign nothing in', async () => {
    const { business, email } = await buildOwnerWithPassword(ctx.db);
    const agent = browser();
    const signedIn = await signInThroughPage(agent, ORIGIN, email, PASSWORD);
    const token = cookieValue(setCookie(signedIn, 'fb_session'));
    expect((await ctx.request().get('/auth/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);

    const home = await agent.get(`/app/b/${business.id}`);
    const out = await agent
      .post('/app/sign-out')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(home.text) });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/app/sign-in?signed_out=1');
    expect(setCookie(out, 'fb_session')).toMatch(/Expires=Thu, 01 Jan 1970/);

    const replayed = await withSession(token).get(`/app/b/${business.id}`);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.location).toMatch(/^\/app\/sign-in\?next=/);
    expect((await ctx.request().get('/auth/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });

  it('When a session is revoked through the JSON API, then its cookie signs nothing in', async () => {
    const team = await buildTeam(ctx.db);
    expect((await withSession(team.ownerToken).get(`/app/b/${team.business.id}`)).status).toBe(200);
    const logout = await ctx.request().post('/auth/logout').set('Authorization', `Bearer ${team.ownerToken}`);
    expect(logout.status).toBe(204);
    const after = await withSession(team.ownerToken).get(`/app/b/${team.business.id}`);
    expect(after.status).toBe(303);
    expect(after.headers.location).toMatch(/^\/app\/sign-in/);
  });

  it('When the password is wrong, then the form comes back with the field marked, and the email is kept', async () => {
    const { email } = await buildOwnerWithPassword(ctx.db);
    const agent = browser();
    const res = await signInThroughPage(agent, ORIGIN, email, 'not the password at all');
    expectPage(res, 401);
    expect(res.text).toMatch(/id="password"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The email or the password is not right.');
    expect(res.text).toContain(`value="${email}"`);
    expect(setCookie(res, 'fb_session')).toBeUndefined();
  });

  it('When the email is malformed, then the form comes back with the email marked (a 400 page, not JSON)', async () => {
    const res = await signInThroughPage(browser(), ORIGIN, 'not an email', 'whatever');
    expectPage(res, 400);
    expect(res.text).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('Email does not look right.');
  });

  it('When next names another site, then signing in lands on the dashboard instead', async () => {
    const { email } = await buildOwnerWithPassword(ctx.db);
    for (const next of ['//evil.example/app', 'https://evil.example/app', '/\\evil.example', '/docs']) {
      const res = await signInThroughPage(browser(), ORIGIN, email, PASSWORD, next);
      expect(res.headers.location, next).toBe('/app');
    }
  });

  it('When failed sign-ins on the page and on /auth/login come from one address, then they spend one budget', async () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 1000, failedAuthLimit: 2, logger });
    const app = createApp({ db: ctx.db, logger, rateLimiters });
    const { email } = await buildOwnerWithPassword(ctx.db);
    const json = await supertest(app).post('/auth/login').send({ email, password: 'wrong wrong wrong' });
    expect(json.status).toBe(401);
    const agent = supertest.agent(app);
    expectPage(await signInThroughPage(agent, ORIGIN, email, 'wrong wrong wrong'), 401);
    const third = await signInThroughPage(agent, ORIGIN, email, PASSWORD);
    expectPage(third, 429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect(setCookie(third, 'fb_session')).toBeUndefined();
    await rateLimiters.close();
  });

  it('When an email failed on /auth/login, then the page slows its next sign-in down like the JSON route', async () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 1000, failedAuthLimit: 1000, logger });
    const loginThrottle = { freeFailures: 0, baseDelayMs: 600, maxDelayMs: 600, windowMs: 60_000, maxTracked: 100 };
    const app = createApp({ db: ctx.db, logger, rateLimiters, loginThrottle });
    const { email } = await buildOwnerWithPassword(ctx.db);
    expect((await supertest(app).post('/auth/login').send({ email, password: 'wrong wrong wrong' })).status).toBe(401);
    const agent = supertest.agent(app);
    const form = await agent.get('/app/sign-in');
    const started = Date.now();
    const res = await agent
      .post('/app/sign-in')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(form.text), email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    await rateLimiters.close();
  });
});

describe('forms are refused from anywhere but the dashboard', () => {
  it('When a form is posted without its token, with another token, from another origin or from nowhere, then it is refused with a 403 page', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const home = await agent.get(`/app/b/${team.business.id}`);
    const token = formTokenIn(home.text);
    const other = formTokenIn((await withSession(team.admin.token).get(`/app/b/${team.business.id}`)).text);
    const attempts = [
      agent.post('/app/sign-out').set('Origin', ORIGIN).type('form').send({}),
      agent.post('/app/sign-out').set('Origin', ORIGIN).type('form').send({ _csrf: other }),
      agent.post('/app/sign-out').set('Origin', 'https://evil.example').type('form').send({ _csrf: token }),
      agent.post('/app/sign-out').set('Referer', 'https://evil.example/page').type('form').send({ _csrf: token }),
      agent.post('/app/sign-out').type('form').send({ _csrf: token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expectPage(res, 403);
      expect(res.text).toContain('can only be sent from the dashboard itself');
    }
    // Nothing happened: the session still signs in.
    expect((await agent.get(`/app/b/${team.business.id}`)).status).toBe(200);
  });

  it('When PUBLIC_BASE_URL is set, then a post from the origin a Host header names is refused, and one from PUBLIC_BASE_URL passes', async () => {
    const { logger } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 1000, failedAuthLimit: 1000, logger });
    const site = 'https://feedback.example';
    const app = createApp({ db: ctx.db, logger, rateLimiters, config: { PUBLIC_BASE_URL: site } });
    const team = await buildTeam(ctx.db);
    const agent = supertest.agent(app).set('Cookie', `fb_session=${team.ownerToken}`);
    const token = formTokenIn((await agent.get(`/app/b/${team.business.id}`)).text);
    const signOut = (host: string, origin: string) =>
      agent.post('/app/sign-out').set('Host', host).set('Origin', origin).type('form').send({ _csrf: token });
    expectPage(await signOut('evil.example', 'http://evil.example'), 403);
    expect((await agent.get(`/app/b/${team.business.id}`)).status).toBe(200);
    expect((await signOut('evil.example', site)).status).toBe(303);
    // signed out: the session is gone
    expect((await agent.get(`/app/b/${team.business.id}`)).status).toBe(303);
  });

  it('When the sign-in form is posted without the form cookie or from another origin, then it is refused (no login CSRF)', async () => {
    const { email } = await buildOwnerWithPassword(ctx.db);
    const form = await browser().get('/app/sign-in');
    const token = formTokenIn(form.text);
    const noCookie = await supertest(ctx.app)
      .post('/app/sign-in')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expectPage(noCookie, 403);
    const cookie = `fb_form=${cookieValue(setCookie(form, 'fb_form'))}`;
    const crossSite = await supertest(ctx.app)
      .post('/app/sign-in')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expectPage(crossSite, 403);
    expect(setCookie(crossSite, 'fb_session')).toBeUndefined();
    const sameSite = await supertest(ctx.app)
      .post('/app/sign-in')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expect(sameSite.status).toBe(303);
  });
});

describe('who reaches which page', () => {
  it("When a member opens another business's pages, then they are refused with a 403 page", async () => {
    const mine = await buildTeam(ctx.db);
    const theirs = await buildTenant(ctx.db);
    const res = await withSession(mine.member.token).get(`/app/b/${theirs.business.id}`);
    expectPage(res, 403);
    expect(res.text).toContain('You are not a member of this business');
    expect(res.text).not.toContain(theirs.business.name);
    expectPage(await withSession(mine.member.token).get('/app/b/not-a-uuid'), 403);
  });

  it('When a user belongs to several businesses, then the start page lets them choose, and with one it opens it', async () => {
    const first = await buildTeam(ctx.db);
    const second = await buildTenant(ctx.db);
    const single = await withSession(first.member.token).get('/app');
    expect(single.status).toBe(303);
    expect(single.headers.location).toBe(`/app/b/${first.business.id}`);

    await ctx.db.pool.query(`INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, 'member')`, [
      second.business.id,
      first.member.id,
    ]);
    const choice = await withSession(first.member.token).get('/app');
    expectPage(choice, 200);
    expect(choice.text).toContain(`href="/app/b/${first.business.id}"`);
    expect(choice.text).toContain(`href="/app/b/${second.business.id}"`);
    const home = await withSession(first.member.token).get(`/app/b/${second.business.id}`);
    expect(home.text).toContain('Switch business');
  });

  it('When a user belongs to no business, then the start page says how to join one', async () => {
    const lone = await buildUser(ctx.db);
    await ctx.db.pool.query('DELETE FROM memberships WHERE user_id = $1', [lone.id]);
    const res = await withSession(lone.token).get('/app');
    expectPage(res, 200);
    expect(res.text).toContain('does not belong to any business yet');
  });
});

describe('the pages themselves', () => {
  it('When a page is served, then its policy allows no inline script, nothing from elsewhere, and no framing', async () => {
    const team = await buildTeam(ctx.db);
    const res = await withSession(team.ownerToken).get(`/app/b/${team.business.id}`);
    const policy = res.headers['content-security-policy'] as string;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    // Every script is a file of the service's, under a name that changes with its content.
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/src="\/app\/assets\/dashboard\.[0-9a-f]{12}\.js"/);
    expect(res.text).not.toMatch(/\sstyle=|\son[a-z]+=/);
    const css = /href="(\/app\/assets\/dashboard\.[0-9a-f]{12}\.css)"/.exec(res.text)![1]!;
    const asset = await browser().get(css);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('When a dashboard address does not exist, then the answer is a 404 page', async () => {
    const res = await browser().get('/app/nothing-here');
    expectPage(res, 404);
    expect(res.text).toContain('There is no dashboard page here');
  });

  it('When a business home is opened, then it is the inbox (the counts are on Analytics)', async () => {
    const team = await buildTeam(ctx.db);
    await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', team.write)
      .send({ content: 'More shade on the terrace' })
      .expect(201);
    const res = await withSession(team.member.token).get(`/app/b/${team.business.id}`);
    expectPage(res, 200);
    expect(res.text).toMatch(/id="inbox-total">1<\/span>/);
    expect(res.text).toContain('More shade on the terrace');
    expect(res.text).toContain(`href="/app/b/${team.business.id}/analytics">Analytics</a>`);
    expect(res.text).not.toContain('suggestions-title');
  });
});

describe('Settings > Integrations > API keys', () => {
  const integrations = (businessId: string) => `/app/b/${businessId}/integrations`;

  it('When an admin creates a key in the page, then it is shown in full once, works on the API, and is refused right after its revocation', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    const page = await agent.get(integrations(team.business.id));
    expectPage(page, 200);
    const posted = await agent
      .post(`${integrations(team.business.id)}/api-keys`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(page.text), name: 'Till sync', scope: 'read' });
    // Redirect after post: the key rides to the page once, sealed in a cookie for that page alone.
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(integrations(team.business.id));
    const flash = (posted.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('fb_flash='))!;
    expect(flash).toMatch(/HttpOnly/);
    expect(flash).toMatch(/SameSite=Strict/);
    expect(flash).toContain(`Path=${integrations(team.business.id)};`);
    const sealed = /^fb_flash=([^;]+)/.exec(flash)![1]!;
    expect(sealed).not.toContain('fbk_');
    const created = await agent.get(posted.headers.location as string);
    expectPage(created, 200);
    const key = /id="new-key"[^>]*value="(fbk_[^"]+)"/.exec(created.text)![1]!;
    expect(created.text).toContain('it is shown only once');
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.headers['set-cookie']?.[0]).toMatch(/^fb_flash=;.*Expires=Thu, 01 Jan 1970/);
    // another session cannot open the sealed key; nor a second reading of the page (the cookie is cleared)
    const otherSession = await supertest(ctx.app)
      .get(posted.headers.location as string)
      .set('Cookie', `fb_session=${team.ownerToken}; fb_flash=${sealed}`);
    expect(otherSession.text).not.toContain(key);
    // a reload is a GET: it makes nothing, and shows the key no more
    const reloaded = await agent.get(integrations(team.business.id));
    expect(reloaded.text).not.toContain(key);
    const { rows: made } = await ctx.db.pool.query(
      `SELECT 1 FROM api_keys WHERE business_id = $1 AND name = 'Till sync'`,
      [team.business.id],
    );
    expect(made).toHaveLength(1);

    const listed = await agent.get(integrations(team.business.id));
    expect(listed.text).toContain('Till sync');
    expect(listed.text).toContain(`<code>${key.slice(0, 12)}`);
    expect(listed.text).not.toContain(key);
    expect(listed.text).toContain(team.admin.email);

    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key)).status).toBe(200);

    const id = (
      await ctx.db.pool.query<{ id: string }>(`SELECT id FROM api_keys WHERE business_id = $1 AND name = 'Till sync'`, [
        team.business.id,
      ])
    ).rows[0]!.id;
    const confirm = await agent.get(`${integrations(team.business.id)}/api-keys/${id}/revoke`);
    expectPage(confirm, 200);
    expect(confirm.text).toContain('Revoke the API key “Till sync”?');
    const revoked = await agent
      .post(`${integrations(team.business.id)}/api-keys/${id}/revoke`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(confirm.text) });
    expect(revoked.status).toBe(303);
    expect((await ctx.request().get('/api/v1/suggestions').set('X-API-Key', key)).status).toBe(401);
    const after = await agent.get(revoked.headers.location as string);
    expect(after.text).toContain('The key “Till sync” is revoked');
  });

  it('When a member opens Integrations or posts a key, then both are refused with a 403 page and no key is made', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.member.token);
    const home = await agent.get(`/app/b/${team.business.id}`);
    expect(home.text).not.toContain('/integrations');
    expectPage(await agent.get(integrations(team.business.id)), 403);
    const posted = await agent
      .post(`${integrations(team.business.id)}/api-keys`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(home.text), name: 'Sneaky', scope: 'write' });
    expectPage(posted, 403);
    expect(posted.text).toContain('needs the owner or admin role');
    const { rows } = await ctx.db.pool.query(`SELECT 1 FROM api_keys WHERE business_id = $1 AND name = 'Sneaky'`, [
      team.business.id,
    ]);
    expect(rows).toEqual([]);
  });

  it("When an admin opens another business's Integrations, then it is refused", async () => {
    const team = await buildTeam(ctx.db);
    const other = await buildTenant(ctx.db);
    expectPage(await withSession(team.admin.token).get(integrations(other.business.id)), 403);
  });

  it('When a key is posted without the form token, then it is refused and no key is made', async () => {
    const team = await buildTeam(ctx.db);
    const res = await withSession(team.ownerToken)
      .post(`${integrations(team.business.id)}/api-keys`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ name: 'Forged', scope: 'write' });
    expectPage(res, 403);
    const { rows } = await ctx.db.pool.query(`SELECT 1 FROM api_keys WHERE business_id = $1 AND name = 'Forged'`, [
      team.business.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('When the name is empty or the access unknown, then the form comes back with that field marked', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const page = await agent.get(integrations(team.business.id));
    const res = await agent
      .post(`${integrations(team.business.id)}/api-keys`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(page.text), name: '  ', scope: 'admin' });
    expectPage(res, 400);
    expect(res.text).toMatch(/id="name"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('The name is required.');
    expect(res.text).toContain('id="scope-error"');
  });
});

describe('Settings: the business and its locations', () => {
  const settings = (businessId: string) => `/app/b/${businessId}/settings`;

  /** Posts a form of the settings page, with the page's token. */
  const post = (agent: supertest.Agent, businessId: string, action: string, fields: Record<string, string>) =>
    postPageForm(agent, settings(businessId), action, fields);

  it('When an admin renames the business and turns Approval required on, then the API reads the same', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.admin.token);
    const res = await post(agent, team.business.id, settings(team.business.id), {
      name: 'Café Lune',
      approval_required: 'true',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${settings(team.business.id)}?saved=business`);
    const business = await ctx
      .request()
      .get(`/businesses/${team.business.id}`)
      .set('Authorization', `Bearer ${team.ownerToken}`);
    expect(business.body).toMatchObject({ name: 'Café Lune', approval_required: true });
    const page = await agent.get(res.headers.location as string);
    expect(page.text).toContain('The settings are saved.');
    expect(page.text).toMatch(/id="approval_required"[^>]*checked/);

    const off = await post(agent, team.business.id, settings(team.business.id), { name: 'Café Lune' });
    expect(off.status).toBe(303);
    const after = await ctx
      .request()
      .get(`/businesses/${team.business.id}`)
      .set('Authorization', `Bearer ${team.ownerToken}`);
    expect(after.body.approval_required).toBe(false);
  });

  it('When the name is empty or on two lines, then the form comes back with the name marked and nothing changes', async () => {
    const team = await buildTeam(ctx.db);
    for (const name of ['   ', 'Café\nLune']) {
      const res = await post(withSession(team.ownerToken), team.business.id, settings(team.business.id), { name });
      expectPage(res, 400);
      expect(res.text).toMatch(/id="business-name"[^>]*aria-invalid="true"/);
    }
    const business = await ctx
      .request()
      .get(`/businesses/${team.business.id}`)
      .set('Authorization', `Bearer ${team.ownerToken}`);
    expect(business.body.name).toBe(team.business.name);
  });

  it('When a member opens Settings, then they see it without forms, and their posts are refused', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.member.token);
    const page = await agent.get(settings(team.business.id));
    expectPage(page, 200);
    expect(page.text).not.toContain(`action="${settings(team.business.id)}"`);
    expect(page.text).toContain('Only owners and admins change these.');
    const renamed = await post(agent, team.business.id, settings(team.business.id), { name: 'Mine now' });
    expectPage(renamed, 403);
    const located = await post(agent, team.business.id, `${settings(team.business.id)}/locations`, { name: 'Roof' });
    expectPage(located, 403);
  });

  it('When locations are added, renamed and deleted in the page, then the API rules hold: unique names, and a used one only detached', async () => {
    const team = await buildTeam(ctx.db);
    const agent = withSession(team.ownerToken);
    const base = settings(team.business.id);
    expect((await post(agent, team.business.id, `${base}/locations`, { name: 'Terrace' })).status).toBe(303);
    expect((await post(agent, team.business.id, `${base}/locations`, { name: 'Bar' })).status).toBe(303);

    const taken = await post(agent, team.business.id, `${base}/locations`, { name: 'terrace' });
    expectPage(taken, 409);
    expect(taken.text).toMatch(/id="new-location"[^>]*aria-invalid="true"/);
    expect(taken.text).toContain('A location named &quot;terrace&quot; already exists');

    const { rows } = await ctx.db.pool.query<{ id: string; name: string }>(
      'SELECT id, name FROM locations WHERE business_id = $1 ORDER BY name',
      [team.business.id],
    );
    const [bar, terrace] = rows as unknown as [{ id: string }, { id: string }];
    const clash = await post(agent, team.business.id, `${base}/locations/${bar.id}`, { name: 'TERRACE' });
    expectPage(clash, 409);
    expect(clash.text).toMatch(new RegExp(`id="location-${bar.id}"[^>]*aria-invalid="true"`));
    expect((await post(agent, team.business.id, `${base}/locations/${bar.id}`, { name: 'Cocktail bar' })).status).toBe(
      303,
    );

    await ctx
      .request()
      .post(`/businesses/${team.business.id}/qr-codes`)
      .set('Authorization', `Bearer ${team.ownerToken}`)
      .send({ label: 'Table 1', location_id: terrace.id })
      .expect(201);
    const confirm = await agent.get(`${base}/locations/${terrace.id}/delete`);
    expectPage(confirm, 200);
    const refused = await agent
      .post(`${base}/locations/${terrace.id}/delete`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(confirm.text) });
    expectPage(refused, 409);
    expect(refused.text).toContain('is still named by 1 QR code');
    const forced = await agent
      .post(`${base}/locations/${terrace.id}/delete`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(refused.text), force: 'true' });
    expect(forced.status).toBe(303);
    const left = await ctx
      .request()
      .get(`/businesses/${team.business.id}/locations?sort=name`)
      .set('Authorization', `Bearer ${team.ownerToken}`);
    expect(left.body.data.map((l: { name: string }) => l.name)).toEqual(['Cocktail bar']);
  });

  it("When an owner posts to another business's settings, then it is refused and nothing changes", async () => {
    const team = await buildTeam(ctx.db);
    const other = await buildTenant(ctx.db);
    const mine = await withSession(team.ownerToken).get(settings(team.business.id));
    const res = await withSession(team.ownerToken)
      .post(settings(other.business.id))
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: formTokenIn(mine.text), name: 'Taken over' });
    expectPage(res, 403);
    const { rows } = await ctx.db.pool.query('SELECT name FROM businesses WHERE id = $1', [other.business.id]);
    expect(rows[0].name).toBe(other.business.name);
  });
});

describe('Team', () => {
  const team = (businessId: string) => `/app/b/${businessId}/team`;

  /** Posts a form of the team page (or the page `from`), with its token. */
  const post = postPageForm;

  const teamJson = async (t: Awaited<ReturnType<typeof buildTeam>>) =>
    (await ctx.request().get(`/businesses/${t.business.id}/team`).set('Authorization', `Bearer ${t.ownerToken}`))
      .body as { members: { user_id: string; role: string }[]; invites: { id: string; email: string }[] };

  it('When a member opens Team, then they see it without management, and every management post is refused', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    const page = await agent.get(team(t.business.id));
    expectPage(page, 200);
    expect(page.text).toContain(t.admin.email);
    expect(page.text).not.toContain('Send the invite');
    expect(page.text).not.toContain('/role"');
    const from = team(t.business.id);
    const attempts = [
      await post(agent, from, `${from}/invites`, { email: uniqueEmail('friend'), role: 'member' }),
      await post(agent, from, `${from}/members/${t.admin.id}/role`, { role: 'member' }),
      await post(agent, from, `${from}/members/${t.admin.id}/remove`),
    ];
    for (const res of attempts) expectPage(res, 403);
    expect((await teamJson(t)).members.find((m) => m.user_id === t.admin.id)?.role).toBe('admin');
    expect((await teamJson(t)).invites).toEqual([]);
  });

  it('When an admin invites, then the invite is pending (and shown once in development mail mode); bad or refused ones come back marked', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.admin.token);
    const from = team(t.business.id);
    const email = uniqueEmail('friend');
    const invited = await post(agent, from, `${from}/invites`, { email, role: 'member' });
    expectPage(invited, 201);
    expect(invited.text).toMatch(/\/app\/accept-invite#token=fbi_/);
    expect((await teamJson(t)).invites.map((i) => i.email)).toEqual([email]);
    const listed = await agent.get(from);
    expect(listed.text).toContain(email);
    expect(listed.text).not.toContain('#token=');

    const owner = await post(agent, from, `${from}/invites`, { email: uniqueEmail('boss'), role: 'owner' });
    expectPage(owner, 403);
    expect(owner.text).toContain('Only an owner can invite an owner.');
    expect(owner.text).toMatch(/id="invite-role"[^>]*aria-invalid="true"/);
    const twice = await post(agent, from, `${from}/invites`, { email, role: 'member' });
    expectPage(twice, 409);
    expect(twice.text).toMatch(/id="invite-email"[^>]*aria-invalid="true"/);
    expect(twice.text).toContain('already has a pending invite');
    const malformed = await post(agent, from, `${from}/invites`, { email: 'friend at example', role: 'member' });
    expectPage(malformed, 400);
    expect(malformed.text).toContain('The email does not look right.');

    const id = (await teamJson(t)).invites[0]!.id;
    expect((await post(agent, from, `${from}/invites/${id}/cancel`)).status).toBe(303);
    expect((await teamJson(t)).invites).toEqual([]);
  });

  it('When an owner changes roles and removes a member, then the API sees it; the last owner can neither be demoted nor leave', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.ownerToken);
    const from = team(t.business.id);
    expect((await post(agent, from, `${from}/members/${t.admin.id}/role`, { role: 'member' })).status).toBe(303);
    expect((await teamJson(t)).members.find((m) => m.user_id === t.admin.id)?.role).toBe('member');

    const demoted = await post(agent, from, `${from}/members/${t.owner.id}/role`, { role: 'admin' });
    expectPage(demoted, 409);
    expect(demoted.text).toContain('The last owner cannot be demoted');
    const leaving = await post(agent, `${from}/members/${t.owner.id}/remove`, `${from}/members/${t.owner.id}/remove`);
    expectPage(leaving, 409);
    expect(leaving.text).toContain('The last owner cannot leave');

    const removed = await post(agent, `${from}/members/${t.member.id}/remove`, `${from}/members/${t.member.id}/remove`);
    expect(removed.status).toBe(303);
    expect((await teamJson(t)).members.map((m) => m.user_id)).not.toContain(t.member.id);
    expectPage(await withSession(t.member.token).get(`/app/b/${t.business.id}`), 403);
  });

  it('When an admin tries to demote or remove an owner, then it is refused: only owners touch owners', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.admin.token);
    const from = team(t.business.id);
    const page = await agent.get(from);
    expect(page.text).not.toContain(`members/${t.owner.id}/role`);
    expectPage(await post(agent, from, `${from}/members/${t.owner.id}/role`, { role: 'member' }), 403);
    expectPage(await post(agent, from, `${from}/members/${t.owner.id}/remove`), 403);
  });

  it('When a member leaves, then they land on the start page and the business is closed to them', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    const from = team(t.business.id);
    const confirm = await agent.get(`${from}/members/${t.member.id}/remove`);
    expectPage(confirm, 200);
    expect(confirm.text).toContain(`Leave ${t.business.name}?`);
    const left = await post(agent, `${from}/members/${t.member.id}/remove`, `${from}/members/${t.member.id}/remove`);
    expect(left.status).toBe(303);
    expect(left.headers.location).toBe('/app');
    expectPage(await agent.get(`/app/b/${t.business.id}`), 403);
  });
});

describe('Settings > Integrations > Webhooks', () => {
  const webhooks = (businessId: string) => `/app/b/${businessId}/integrations/webhooks`;

  const post = postPageForm;

  it('When a member opens Webhooks or adds an endpoint, then both are refused', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.member.token);
    expectPage(await agent.get(webhooks(t.business.id)), 403);
    const home = `/app/b/${t.business.id}`;
    const res = await post(agent, home, webhooks(t.business.id), { url: 'https://hooks.example.com/a', events: '*' });
    expectPage(res, 403);
  });

  it('When an admin adds an endpoint, then its secret is shown once; bad URLs and no events come back marked', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.admin.token);
    const list = webhooks(t.business.id);
    const local = await post(agent, list, list, { url: 'http://127.0.0.1:9/hook', events: '*' });
    expectPage(local, 400);
    expect(local.text).toMatch(/id="webhook-url"[^>]*aria-invalid="true"/);
    expect(local.text).toContain('The URL must be https.');
    const none = await post(agent, list, list, { url: 'https://hooks.example.com/a' });
    expectPage(none, 400);
    expect(none.text).toContain('Choose at least one event type, or all events.');

    const created = await post(agent, list, list, {
      url: 'https://hooks.example.com/a',
      description: 'Support desk',
      events: ['suggestion.created', 'issue.created'],
    });
    // Redirect after post: the secret is on the endpoint's page once; reading it again shows it no more.
    expect(created.status).toBe(303);
    const shown = await agent.get(created.headers.location as string);
    expectPage(shown, 200);
    const secret = /id="webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(shown.text)![1]!;
    expect(shown.text).toContain('suggestion.created, issue.created');
    expect((await agent.get(created.headers.location as string)).text).not.toContain(secret);
    const { rows: made } = await ctx.db.pool.query('SELECT 1 FROM webhook_endpoints WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(made).toHaveLength(1);
    const listed = await agent.get(list);
    expect(listed.text).toContain('https://hooks.example.com/a');
    expect(listed.text).not.toContain(secret);
    const id = /integrations\/webhooks\/([0-9a-f-]{36})"/.exec(listed.text)![1]!;
    expect((await agent.get(`${list}/${id}`)).text).not.toContain(secret);
  });

  it('When an owner sends a test event, rotates the secret, disables and deletes the endpoint, then the API sees each', async () => {
    const t = await buildTeam(ctx.db);
    const agent = withSession(t.ownerToken);
    const list = webhooks(t.business.id);
    const created = await post(agent, list, list, { url: 'https://hooks.example.com/b', events: '*' });
    const first = /id="webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(
      (await agent.get(created.headers.location as string)).text,
    )![1]!;
    const id = (
      await ctx.db.pool.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE business_id = $1', [
        t.business.id,
      ])
    ).rows[0]!.id;
    const page = `${list}/${id}`;

    expect((await post(agent, page, `${page}/test`)).status).toBe(303);
    const tested = await agent.get(`${page}?saved=test`);
    expect(tested.text).toContain('<code>webhook.test</code> · <strong>pending</strong> · 0 attempts');

    const rotated = await post(agent, page, `${page}/rotate-secret`);
    expect(rotated.status).toBe(303);
    const second = /id="webhook-secret"[^>]*value="(whsec_[^"]+)"/.exec(
      (await agent.get(rotated.headers.location as string)).text,
    )![1]!;
    expect(second).not.toBe(first);

    expect((await post(agent, page, `${page}/active`, { active: 'false' })).status).toBe(303);
    const bearer = { Authorization: `Bearer ${t.ownerToken}` };
    expect((await ctx.request().get(`/businesses/${t.business.id}/webhooks/${id}`).set(bearer)).body.active).toBe(
      false,
    );

    expect((await post(agent, `${page}/delete`, `${page}/delete`)).status).toBe(303);
    expect((await ctx.request().get(`/businesses/${t.business.id}/webhooks/${id}`).set(bearer)).status).toBe(404);
  });
});
