import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFor } from '../support/budgets.js';
import { testMode } from '../support/database.js';
import { cliJson, databaseEnv, runCli, startServer, type ServerProcess } from '../support/processes.js';

const login = (baseUrl: string, email: string, password: string) =>
  fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

/** The README walkthrough, as written: admin CLI and HTTP against a running server. */
describe('server process and admin CLI', () => {
  const env = databaseEnv();
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer(env);
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it(
    'When the README walkthrough is followed while the server runs, then a created suggestion is listed and the owner signs in',
    { timeout: budgetFor({ cliRuns: 4 }) },
    async () => {
      const ownerEmail = `o-${Date.now()}@x.test`;
      const business = await cliJson(
        [
          'business',
          'create',
          '--name',
          'Café Lune',
          '--owner-email',
          ownerEmail,
          '--owner-password',
          'a long passphrase',
        ],
        env,
      );
      expect(Object.keys(business)).toEqual(['id', 'name', 'plan', 'owner']);
      expect(business).toMatchObject({ name: 'Café Lune', plan: 'business', owner: { id: expect.any(String) } });

      const key = await cliJson<{ id: string; key: string; prefix: string }>(
        ['key', 'create', '--business', business.id as string, '--name', 'Website widget', '--scope', 'write'],
        env,
      );
      expect(Object.keys(key)).toEqual(['id', 'key', 'prefix', 'name', 'scope', 'created_at']);
      expect(key.key.startsWith(key.prefix)).toBe(true);

      const created = await fetch(`${server.baseUrl}/api/v1/suggestions`, {
        method: 'POST',
        headers: { 'X-API-Key': key.key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'Love the new terrace, please add more shade', customer_name: 'Ada' }),
      });
      expect(created.status).toBe(201);
      const listed = await fetch(`${server.baseUrl}/api/v1/suggestions`, {
        headers: { Authorization: `Bearer ${key.key}` },
      });
      const body = (await listed.json()) as { total: number; data: { content: string }[] };
      expect(body.total).toBe(1);
      expect(body.data[0]!.content).toBe('Love the new terrace, please add more shade');

      const keys = await cliJson<Record<string, unknown>[]>(['key', 'list', '--business', business.id as string], env);
      expect(keys).toHaveLength(1);
      expect(JSON.stringify(keys)).not.toContain(key.key);
      expect(keys[0]).not.toHaveProperty('digest');

      const revoked = await cliJson(['key', 'revoke', key.id], env);
      expect(revoked.revoked_at).toEqual(expect.any(String));
      const after = await fetch(`${server.baseUrl}/api/v1/suggestions`, { headers: { 'X-API-Key': key.key } });
      expect(after.status).toBe(401);

      // The dashboard: the owner signs in with the password given to `business create`.
      const signIn = await login(server.baseUrl, ownerEmail, 'a long passphrase');
      expect(signIn.status).toBe(200);
      const { token } = (await signIn.json()) as { token: string };
      const overview = await fetch(`${server.baseUrl}/businesses/${business.id as string}/analytics/overview`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(overview.status).toBe(200);
    },
  );

  it('When a password is given for an email that has an account, then the CLI refuses to ignore it, and --reset-password replaces it', async () => {
    const email = `existing-${Date.now()}@x.test`;
    const first = await cliJson<{ id: string }>(
      ['business', 'create', '--name', 'First', '--owner-email', email, '--owner-password', 'the first password'],
      env,
    );
    const second = await cliJson<{ id: string }>(['business', 'create', '--name', 'Second'], env);
    const addTo = (business: string, ...more: string[]) =>
      runCli(['user', 'create', '--business', business, '--email', email, '--role', 'owner', ...more], env);

    const ignored = await addTo(second.id, '--password', 'an attacker password');
    expect(ignored.code).not.toBe(0);
    expect(ignored.stderr).toMatch(/already has an account.*--reset-password/);
    const again = await runCli(
      ['business', 'create', '--name', 'Third', '--owner-email', email, '--owner-password', 'another password'],
      env,
    );
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already has an account/);
    expect((await login(server.baseUrl, email, 'the first password')).status).toBe(200);

    const replaced = await addTo(second.id, '--password', 'the replaced password', '--reset-password');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect((await login(server.baseUrl, email, 'the first password')).status).toBe(401);
    expect((await login(server.baseUrl, email, 'the replaced password')).status).toBe(200);
    expect(first.id).not.toBe(second.id);

    const weak = await runCli(['business', 'create', '--name', 'Weak', '--owner-password', 'short'], env);
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toMatch(/owner-password: must be at least 12 characters/);
  }, 120_000);

  it('When a user is added and a location created, then the CLI prints them as JSON', async () => {
    const business = await cliJson(['business', 'create', '--name', 'Users Inc'], env);
    const user = await cliJson(
      [
        'user',
        'create',
        '--business',
        business.id as string,
        '--email',
        `u-${Date.now()}@x.test`,
        '--role',
        'admin',
        '--password',
        'correct horse',
      ],
      env,
    );
    expect(user).toMatchObject({ role: 'admin', business_id: business.id });
    const location = await cliJson(
      ['location', 'create', '--business', business.id as string, '--name', 'Main St'],
      env,
    );
    expect(location).toMatchObject({ name: 'Main St', id: expect.any(String) });
  });

  it('When the seed command runs while the server runs, then it prints only a JSON summary and the rows are listed', async () => {
    const business = await cliJson(['business', 'create', '--name', 'Seeded'], env);
    const id = business.id as string;
    const result = await runCli(
      ['seed', '--business', id, '--suggestions', '300', '--issues', '30', '--comments', '20'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(''); // no progress bar when stderr is not a terminal
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual([
      'business_id',
      'suggestions',
      'issues',
      'comments',
      'rows',
      'seconds',
      'rows_per_second',
    ]);
    expect(summary).toMatchObject({ business_id: id, suggestions: 300, issues: 30, comments: 20, rows: 350 });
    const { key } = await cliJson<{ key: string }>(['key', 'create', '--business', id, '--name', 'k'], env);
    const listed = await fetch(`${server.baseUrl}/api/v1/suggestions?status=pending&limit=1`, {
      headers: { 'X-API-Key': key },
    });
    const body = (await listed.json()) as { total: number };
    const all = await fetch(`${server.baseUrl}/api/v1/issues?limit=1`, { headers: { 'X-API-Key': key } });
    expect(((await all.json()) as { total: number }).total).toBe(30);
    expect(body.total).toBeGreaterThan(0);
    expect(body.total).toBeLessThan(300);
  });

  // What these exercise is the CLI's argument handling and lookups, the same in both modes: run once.
  it.runIf(testMode() === 'embedded').each([
    [['business', 'create'], /missing --name/],
    [['business', 'create', '--name', 'x', '--plan', 'gold'], /plan/],
    [['key', 'create', '--business', '0190c7f0-0000-7000-8000-000000000000', '--name', 'x'], /business .* not found/],
    [['key', 'create', '--business', 'nope', '--name', 'x'], /business/],
    [['key', 'revoke', '0190c7f0-0000-7000-8000-000000000000'], /not found/],
    [['key', 'frobnicate'], /unknown command/],
    [['key', 'list', '--business', '0190c7f0-0000-7000-8000-000000000000', '--bogus'], /bogus/],
    [['seed', '--business', '0190c7f0-0000-7000-8000-000000000000'], /missing --suggestions/],
    [['seed', '--business', '0190c7f0-0000-7000-8000-000000000000', '--suggestions', 'lots'], /suggestions/],
    [
      ['seed', '--business', '0190c7f0-0000-7000-8000-000000000000', '--suggestions', '0', '--comments', '5'],
      /comments/,
    ],
    [['seed', '--business', '0190c7f0-0000-7000-8000-000000000000', '--suggestions', '5'], /business .* not found/],
  ])('When the CLI is called with %j, then it fails on stderr with a non-zero exit', async (args, message) => {
    const result = await runCli(args, env);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it.runIf(testMode() === 'embedded')(
    'When --help is asked at any level, then usage is printed and the exit is 0',
    async () => {
      for (const args of [['--help'], ['key', '--help'], ['key', 'create', '--help'], ['seed', '--help']]) {
        const result = await runCli(args, env);
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(/Usage:/);
      }
    },
  );
});

describe('graceful shutdown', () => {
  it('When SIGTERM arrives during a request, then that request is answered and the process exits 0', async () => {
    const env = databaseEnv();
    const server = await startServer(env);
    try {
      const business = await cliJson(['business', 'create', '--name', 'Shutdown'], env);
      const { key } = await cliJson<{ key: string }>(
        ['key', 'create', '--business', business.id as string, '--name', 'k', '--scope', 'write'],
        env,
      );
      const body = JSON.stringify({ content: 'written during shutdown' });
      const status = new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${server.baseUrl}/api/v1/suggestions`, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write(body.slice(0, 5));
        void sleep(300).then(() => {
          server.child.kill('SIGTERM');
          return sleep(300).then(() => req.end(body.slice(5)));
        });
      });
      const started = Date.now();
      expect(await status).toBe(201);
      expect(await server.stop('SIGTERM')).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.output.join('')).toContain('"msg":"stopped"');
    } finally {
      await server.stop('SIGKILL');
    }
  }, 60_000);
});
