import type { Express } from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { SETUP_COMMANDS } from '../../src/cli/setup.command.js';
import type { Config } from '../../src/config/config.js';
import type { Database } from '../../src/db/database.js';
import { sha256 } from '../../src/shared/digest.js';
import { capturingLogger } from '../support/app.js';
import { PASSWORD, postPageForm } from '../support/dashboard.js';
import { openEmptyTestDatabase } from '../support/database.js';

/** The first run in the browser, on a database of its own: it starts with no business at all. */
let db: Database;
let app: Express;
const SLOW_MS = 120_000;
const KNOWN = `fbu_${'k'.repeat(43)}`;

beforeAll(async () => {
  db = await openEmptyTestDatabase();
  app = createApp({ db, logger: capturingLogger().logger });
}, SLOW_MS);
afterAll(async () => {
  await db?.close();
});

const setupLink = (): Promise<{ url: string }> =>
  SETUP_COMMANDS['setup-link']!.run(
    db,
    {} as never,
    { PUBLIC_BASE_URL: 'http://localhost:3000' } as Config,
  ) as Promise<{
    url: string;
  }>;
const tokenOf = (url: string) => decodeURIComponent(new URL(url).hash.replace(/^#token=/, ''));
const businessCount = async () => Number((await db.pool.query('SELECT count(*) AS n FROM businesses')).rows[0].n);
const owner = (token: string, email = 'ana@example.com') => ({
  token,
  business_name: 'Café Lumière',
  name: 'Ana Silva',
  email,
  password: PASSWORD,
});

describe('the first run, while no business exists', () => {
  it('When the setup page is opened, then it asks for Business name, Your name, Email and Password', async () => {
    const res = await supertest(app).get('/app/setup');
    expect(res.status).toBe(200);
    for (const label of ['Business name', 'Your name', 'Email', 'Password', 'Setup token']) {
      expect(res.text).toMatch(new RegExp(`<label for="\\w+">${label}</label>`));
    }
  });

  it('When admin setup-link runs twice, then it prints two links to /app/setup whose tokens are kept only as digests', async () => {
    const first = await setupLink();
    const second = await setupLink();
    expect(first.url).toMatch(/^http:\/\/localhost:3000\/app\/setup#token=fbu_/);
    expect(tokenOf(first.url)).not.toBe(tokenOf(second.url));
    const { rows } = await db.pool.query<{ token_digest: Buffer }>('SELECT token_digest FROM setup_tokens');
    const digests = rows.map((row) => row.token_digest.toString('hex'));
    expect(digests).toContain(sha256(tokenOf(first.url)).toString('hex'));
    expect(JSON.stringify(rows)).not.toContain(tokenOf(first.url));
  });

  it('When the form is posted without a token or with a wrong one, then it is a 403 with the token field marked, and nothing is created', async () => {
    for (const token of ['', 'fbu_' + 'x'.repeat(43), 'not a token']) {
      const res = await postPageForm(supertest.agent(app), '/app/setup', '/app/setup', owner(token));
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/id="token"[^>]*aria-invalid="true"/);
      expect(res.text).toContain('This setup token is missing, wrong, expired or already used');
    }
    expect(await businessCount()).toBe(0);
  });

  it('When an expired token is posted, then it is a 403', async () => {
    const { url } = await setupLink();
    await db.pool.query(`UPDATE setup_tokens SET expires_at = now() - interval '1 second' WHERE token_digest = $1`, [
      sha256(tokenOf(url)),
    ]);
    const res = await postPageForm(supertest.agent(app), '/app/setup', '/app/setup', owner(tokenOf(url)));
    expect(res.status).toBe(403);
  });

  it('When a field is refused, then the form comes back with it marked and the token kept', async () => {
    const { url } = await setupLink();
    const res = await postPageForm(supertest.agent(app), '/app/setup', '/app/setup', {
      ...owner(tokenOf(url)),
      business_name: '',
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="business_name"[^>]*aria-invalid="true"/);
    expect(res.text).toMatch(/id="password"[^>]*aria-invalid="true"/);
    expect(res.text).toContain(`value="${tokenOf(url)}"`);
    expect(await businessCount()).toBe(0);
  });

  it(
    'When two setup posts arrive at once, then one business and its owner are created, the owner is signed in on the dashboard, and the other post is a 404',
    async () => {
      const a = tokenOf((await setupLink()).url);
      const b = tokenOf((await setupLink()).url);
      const agentA = supertest.agent(app);
      const agentB = supertest.agent(app);
      const [resA, resB] = await Promise.all([
        postPageForm(agentA, '/app/setup', '/app/setup', owner(a, 'first@example.com')),
        postPageForm(agentB, '/app/setup', '/app/setup', owner(b, 'second@example.com')),
      ]);
      expect([resA.status, resB.status].sort()).toEqual([303, 404]);
      expect(await businessCount()).toBe(1);
      const [winner, agent] = resA.status === 303 ? [resA, agentA] : [resB, agentB];
      const { rows } = await db.pool.query<{ id: string; name: string; email: string; owner: string }>(
        `SELECT b.id, b.name, u.email, u.name AS owner
         FROM businesses b JOIN memberships m ON m.business_id = b.id AND m.role = 'owner' JOIN users u ON u.id = m.user_id`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.name).toBe('Café Lumière');
      expect(rows[0]!.owner).toBe('Ana Silva');
      expect(winner.headers.location).toBe(`/app/b/${rows[0]!.id}`);
      const home = await agent.get(winner.headers.location as string);
      expect(home.status).toBe(200);
      expect(home.text).toContain('Ana Silva');
      expect(home.text).toContain('Café Lumière');
    },
    SLOW_MS,
  );
});

describe('once a business exists', () => {
  it('When the setup page is opened or posted to, even with a live token, then it is a 404', async () => {
    expect(await businessCount()).toBe(1);
    const { rows } = await db.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM setup_tokens WHERE used_at IS NULL AND expires_at > now()',
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    expect((await supertest(app).get('/app/setup')).status).toBe(404);
    const post = await supertest(app).post('/app/setup').type('form').send({ token: 'fbu_x' });
    expect(post.status).toBe(404);
  });

  it('When admin setup-link runs, then it refuses: the first run is over', async () => {
    await expect(setupLink()).rejects.toThrow(/a business exists already/);
  });

  it(
    'When the business is gone again and the used token comes back, then it is refused: a token works once',
    async () => {
      const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM setup_tokens WHERE used_at IS NOT NULL');
      expect(rows).toHaveLength(1);
      // Only a test can take the first run back; the used token still never works again.
      await db.pool.query('UPDATE setup_tokens SET token_digest = $1 WHERE id = $2', [sha256(KNOWN), rows[0]!.id]);
      await db.pool.query('DELETE FROM businesses');
      const res = await postPageForm(supertest.agent(app), '/app/setup', '/app/setup', owner(KNOWN));
      expect(res.status).toBe(403);
    },
    SLOW_MS,
  );
});
