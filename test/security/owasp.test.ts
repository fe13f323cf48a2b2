import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/key-format.js';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { createLogger } from '../../src/config/logger.js';
import supertest from 'supertest';
import { requestLine, useTestApp } from '../support/app.js';
import { buildIssue, buildTeam } from '../support/factories.js';

/**
 * OWASP API Security Top 10 (2023), one table-driven test per row, across both route families.
 * Behaviour already covered in depth elsewhere (business-access, rate-limit, exports) is referenced
 * here by running the same promise over every route rather than one example.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

async function world() {
  const mine = await buildTeam(ctx.db);
  const theirs = await buildTeam(ctx.db);
  const post = (t: Team, body: object) =>
    ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(body);
  const theirSuggestion = (await post(theirs, { content: 'THEIR-SECRET suggestion coffee' })).body.id as string;
  const theirIssue = (await buildIssue(ctx.db, theirs.business.id, { title: 'THEIR-SECRET issue coffee' })).id;
  const theirQr = (
    await ctx
      .request()
      .post(`/businesses/${theirs.business.id}/qr-codes`)
      .set('X-API-Key', theirs.write)
      .send({ label: 'THEIR-SECRET' })
  ).body.id as string;
  await post(mine, { content: 'my coffee' });
  return { mine, theirs, theirSuggestion, theirIssue, theirQr };
}

describe('API1 broken object-level authorization', () => {
  it("When any route is given another business's object id, then it is a 404 and never that object's data", async () => {
    const { mine, theirSuggestion, theirIssue, theirQr, theirs } = await world();
    const v1 = (m: 'get' | 'post' | 'patch', path: string, body?: object) =>
      ctx.request()[m](`/api/v1${path}`).set('X-API-Key', mine.write).send(body);
    const fam = (m: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const agent = ctx.request();
      return agent[m](`/businesses/${mine.business.id}${path}`)
        .set('Authorization', `Bearer ${mine.ownerToken}`)
        .send(body);
    };
    const attempts = [
      v1('get', `/suggestions/${theirSuggestion}`),
      v1('patch', `/suggestions/${theirSuggestion}`, { status: 'rejected' }),
      v1('get', `/suggestions/${theirSuggestion}/comments`),
      v1('post', `/suggestions/${theirSuggestion}/comments`, { content: 'x' }),
      v1('get', `/issues/${theirIssue}`),
      v1('get', `/issues/${theirIssue}/comments`),
      v1('post', `/issues/${theirIssue}/comments`, { content: 'x' }),
      fam('get', `/suggestions/${theirSuggestion}`),
      fam('patch', `/suggestions/${theirSuggestion}`, { status: 'rejected' }),
      fam('get', `/suggestions/${theirSuggestion}/comments`),
      fam('post', `/suggestions/${theirSuggestion}/comments`, { content: 'x' }),
      fam('get', `/issues/${theirIssue}`),
      fam('patch', `/issues/${theirIssue}`, { status: 'closed' }),
      fam('get', `/issues/${theirIssue}/comments`),
      fam('post', `/issues/${theirIssue}/comments`, { content: 'x' }),
      fam('get', `/qr-codes/${theirQr}`),
      fam('get', `/qr-codes/${theirQr}/image`),
      fam('patch', `/qr-codes/${theirQr}`, { label: 'mine now' }),
      fam('delete', `/qr-codes/${theirQr}`),
      fam('delete', `/api-keys/${theirs.readKey.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, requestLine(res)).toBe(404);
      expect(res.text).not.toContain('THEIR-SECRET');
    }
    const { rows } = await ctx.db.pool.query(
      `SELECT (SELECT status::text FROM suggestions WHERE id = $1) AS s, (SELECT status::text FROM issues WHERE id = $2) AS i,
              (SELECT label FROM qr_codes WHERE id = $3) AS q, (SELECT revoked_at FROM api_keys WHERE id = $4) AS k,
              (SELECT count(*)::int FROM comments WHERE entity_id IN ($1, $2)) AS c`,
      [theirSuggestion, theirIssue, theirQr, theirs.readKey.id],
    );
    expect(rows[0]).toEqual({ s: 'pending', i: 'open', q: 'THEIR-SECRET', k: null, c: 0 });
  });

  it("When another business's path is used with my credentials, then every route is a 403", async () => {
    const { mine, theirs } = await world();
    for (const token of [mine.write, mine.ownerToken]) {
      for (const path of ['/suggestions', '/issues', '/qr-codes', '/team', '/api-keys', '/analytics/overview']) {
        const res = await ctx
          .request()
          .get(`/businesses/${theirs.business.id}${path}`)
          .set('Authorization', `Bearer ${token}`);
        expect(res.status, path).toBe(403);
        expect(res.text).not.toContain('THEIR-SECRET');
      }
    }
  });

  it('When listing, searching, exporting or summarising, then another business’s rows never appear', async () => {
    const { mine } = await world();
    const key = { 'X-API-Key': mine.read };
    const user = { Authorization: `Bearer ${mine.ownerToken}` };
    const b = `/businesses/${mine.business.id}`;
    const responses = await Promise.all([
      ctx.request().get('/api/v1/suggestions').set(key),
      ctx.request().get('/api/v1/suggestions?q=coffee').set(key),
      ctx.request().get('/api/v1/issues?q=coffee').set(key),
      ctx.request().get('/api/v1/export/suggestions').set(key),
      ctx.request().get('/api/v1/export/suggestions?format=csv').set(key),
      ctx.request().get('/api/v1/export/issues').set(key),
      ctx.request().get(`${b}/suggestions?q=coffee`).set(user),
      ctx.request().get(`${b}/issues`).set(user),
      ctx.request().get(`${b}/qr-codes`).set(user),
      ctx.request().get(`${b}/analytics/overview`).set(user),
    ]);
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('THEIR-SECRET');
    }
    expect(responses[1].body.total).toBe(1);
    expect(responses[9].body.suggestions.total).toBe(1);
  });
});

describe('API2 broken authentication', () => {
  it('When the credential is missing, empty, malformed, unknown, revoked, expired or only in the query, then every 401 is the same body', async () => {
    const t = await buildTeam(ctx.db);
    const revoked = await ctx
      .request()
      .delete(`/businesses/${t.business.id}/api-keys/${t.readKey.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`);
    expect(revoked.status).toBe(200);
    await ctx.db.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      t.member.id,
    ]);
    const good = generateApiKey().key;
    const cases: [string, Record<string, string>, string?][] = [
      ['none', {}],
      ['empty bearer', { Authorization: 'Bearer ' }],
      ['empty header', { 'X-API-Key': '' }],
      ['wrong prefix', { 'X-API-Key': 'ghp_' + good.slice(4) }],
      ['bad checksum', { 'X-API-Key': good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A') }],
      ['unknown', { 'X-API-Key': good }],
      ['revoked', { 'X-API-Key': t.read }],
      ['expired session', { Authorization: `Bearer ${t.member.token}` }],
      ['basic scheme', { Authorization: `Basic ${t.write}` }],
      ['query only', {}, `?api_key=${t.write}&token=${t.ownerToken}`],
    ];
    const bodies = new Set<string>();
    for (const [label, headers, query = ''] of cases) {
      for (const path of [`/api/v1/suggestions${query}`, `/businesses/${t.business.id}/suggestions${query}`]) {
        const res = await ctx.request().get(path).set(headers);
        expect(res.status, `${label} ${path}`).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        bodies.add(JSON.stringify({ ...res.body, requestId: undefined }));
      }
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        statusCode: 401,
        message: 'Missing or invalid credential',
        error: 'Unauthorized',
        code: 'UNAUTHORIZED',
      }),
    ]);
  });

  it('When keys and session tokens are used, then they never appear in logs or in any later response', async () => {
    const t = await buildTeam(ctx.db);
    const created = await ctx
      .request()
      .post(`/businesses/${t.business.id}/api-keys`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ name: 'n', scope: 'write' });
    const secrets = [t.read, t.write, t.ownerToken, t.member.token, created.body.key as string];
    const texts: string[] = [];
    const b = `/businesses/${t.business.id}`;
    for (const secret of secrets) {
      for (const path of ['/api/v1/suggestions', `${b}/api-keys`, `${b}/team`, '/auth/me', `${b}/analytics/overview`]) {
        texts.push((await ctx.request().get(path).set('Authorization', `Bearer ${secret}`)).text);
        texts.push((await ctx.request().get(path).set('X-API-Key', secret)).text);
      }
    }
    const haystack = texts.join('\n') + ctx.logs.join('\n');
    for (const secret of secrets) {
      expect(haystack).not.toContain(secret);
      expect(haystack).not.toContain(secret.slice(12));
    }
  });
});

describe('API3 broken object-property-level authorization', () => {
  const PROTECTED = {
    id: '0190c7f0-0000-7000-8000-000000000001',
    business_id: '0190c7f0-0000-7000-8000-000000000002',
    created_at: '2020-01-01T00:00:00Z',
    upvote_count: 99,
    resolved_at: '2020-01-01T00:00:00Z',
    is_admin: true,
  };

  it.each(Object.entries(PROTECTED))(
    'When a body carries %s, then every write route refuses it with a 400 and nothing changes',
    async (field, value) => {
      const t = await buildTeam(ctx.db);
      const sid = (await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'x' }))
        .body.id as string;
      const iid = (await buildIssue(ctx.db, t.business.id)).id;
      const b = `/businesses/${t.business.id}`;
      const owner = { Authorization: `Bearer ${t.ownerToken}` };
      const writes = [
        ctx
          .request()
          .post('/api/v1/suggestions')
          .set('X-API-Key', t.write)
          .send({ content: 'y', [field]: value }),
        ctx
          .request()
          .patch(`/api/v1/suggestions/${sid}`)
          .set('X-API-Key', t.write)
          .send({ status: 'completed', [field]: value }),
        ctx
          .request()
          .post(`/api/v1/suggestions/${sid}/comments`)
          .set('X-API-Key', t.write)
          .send({ content: 'c', [field]: value }),
        ctx
          .request()
          .post(`${b}/suggestions`)
          .set(owner)
          .send({ content: 'y', [field]: value }),
        ctx
          .request()
          .patch(`${b}/suggestions/${sid}`)
          .set(owner)
          .send({ status: 'completed', [field]: value }),
        ctx
          .request()
          .post(`${b}/issues`)
          .set(owner)
          .send({ title: 'y', [field]: value }),
        ctx
          .request()
          .patch(`${b}/issues/${iid}`)
          .set(owner)
          .send({ status: 'closed', [field]: value }),
        ctx
          .request()
          .post(`${b}/qr-codes`)
          .set(owner)
          .send({ label: 'y', [field]: value }),
        ctx
          .request()
          .post(`${b}/api-keys`)
          .set(owner)
          .send({ name: 'y', [field]: value }),
        ctx
          .request()
          .post(`${b}/team/invite`)
          .set(owner)
          .send({ email: 'z@example.com', [field]: value }),
      ];
      for (const res of await Promise.all(writes)) {
        expect(res.status, requestLine(res)).toBe(400);
        expect(res.body.message).toContain(field);
      }
      const { rows } = await ctx.db.pool.query(
        `SELECT (SELECT count(*)::int FROM suggestions WHERE business_id = $1) AS s, (SELECT count(*)::int FROM issues WHERE business_id = $1) AS i,
              (SELECT count(*)::int FROM comments WHERE business_id = $1) AS c, (SELECT count(*)::int FROM qr_codes WHERE business_id = $1) AS q,
              (SELECT status::text FROM suggestions WHERE id = $2) AS status`,
        [t.business.id, sid],
      );
      expect(rows[0]).toEqual({ s: 1, i: 1, c: 0, q: 0, status: 'pending' });
    },
  );

  it('When any resource is read, then no digest, hash, search vector or internal column is ever in the response', async () => {
    const t = await buildTeam(ctx.db);
    const sid = (await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'x' })).body
      .id as string;
    const iid = (await buildIssue(ctx.db, t.business.id)).id;
    const b = `/businesses/${t.business.id}`;
    const owner = { Authorization: `Bearer ${t.ownerToken}` };
    const responses = await Promise.all([
      ctx.request().get(`/api/v1/suggestions/${sid}`).set('X-API-Key', t.read),
      ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read),
      ctx.request().get(`/api/v1/issues/${iid}`).set('X-API-Key', t.read),
      ctx.request().get(`${b}/suggestions`).set(owner),
      ctx.request().get(`${b}/issues`).set(owner),
      ctx.request().get(`${b}/team`).set(owner),
      ctx.request().get(`${b}/api-keys`).set(owner),
      ctx.request().get(`${b}/analytics/overview`).set(owner),
      ctx.request().get('/auth/me').set(owner),
      ctx.request().get('/api/v1/export/suggestions').set('X-API-Key', t.read),
    ]);
    const INTERNAL = ['digest', 'token_digest', 'password_hash', 'password', 'search', 'source', 'key', 'token'];
    const keysOf = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.flatMap(keysOf)
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)])
          : [];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(
        keysOf(res.body).filter((k) => INTERNAL.includes(k)),
        requestLine(res),
      ).toEqual([]);
      expect(res.text).not.toMatch(/\$argon2/);
    }
  });
});

describe('API4 unrestricted resource consumption', () => {
  it.each([
    ['/api/v1/suggestions?limit=101', 'limit'],
    ['/api/v1/suggestions?page=100001', 'page'],
    ['/api/v1/issues?limit=0', 'limit'],
    ['/api/v1/suggestions?q=' + 'a'.repeat(201), 'q'],
    ['/businesses/:b/suggestions?offset=10000001', 'offset'],
    ['/businesses/:b/issues?limit=1000', 'limit'],
  ])('When %s is asked, then it is a 400, never a silent clamp', async (path, field) => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().get(path.replace(':b', t.business.id)).set('Authorization', `Bearer ${t.read}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('When a body exceeds 64 KiB on any family, then it is a 413 before anything is stored', async () => {
    const t = await buildTeam(ctx.db);
    const big = { content: 'x', customer_name: 'n'.repeat(65 * 1024) };
    expect((await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(big)).status).toBe(413);
    expect(
      (await ctx.request().post(`/businesses/${t.business.id}/suggestions`).set('X-API-Key', t.write).send(big)).status,
    ).toBe(413);
    expect(
      (
        await ctx
          .request()
          .post('/auth/login')
          .send({ email: 'a@b.co', password: 'p'.repeat(70_000) })
      ).status,
    ).toBe(413);
  });

  it('When a key exceeds its rate, then it gets 429s on both families', async () => {
    const app = createApp({
      db: ctx.db,
      logger: createLogger('silent'),
      rateLimiters: createRateLimiters({ limit: 3, logger: createLogger('silent') }),
    });
    const t = await buildTeam(ctx.db);
    const statuses = [];
    for (const path of [
      '/api/v1/suggestions',
      `/businesses/${t.business.id}/issues`,
      '/api/v1/issues',
      `/businesses/${t.business.id}/team`,
    ]) {
      statuses.push((await supertest(app).get(path).set('Authorization', `Bearer ${t.read}`)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('API5 broken function-level authorization', () => {
  it('When a read key calls any write route of either family, then it is a 403 and nothing is written', async () => {
    const t = await buildTeam(ctx.db);
    const sid = (await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'x' })).body
      .id as string;
    const b = `/businesses/${t.business.id}`;
    const read = { Authorization: `Bearer ${t.read}` };
    const writes = [
      ctx.request().post('/api/v1/suggestions').set(read).send({ content: 'y' }),
      ctx.request().patch(`/api/v1/suggestions/${sid}`).set(read).send({ status: 'completed' }),
      ctx.request().post(`/api/v1/suggestions/${sid}/comments`).set(read).send({ content: 'c' }),
      ctx.request().post(`${b}/suggestions`).set(read).send({ content: 'y' }),
      ctx.request().patch(`${b}/suggestions/${sid}`).set(read).send({ status: 'completed' }),
      ctx.request().post(`${b}/issues`).set(read).send({ title: 'y' }),
      ctx.request().post(`${b}/qr-codes`).set(read).send({ label: 'y' }),
      ctx.request().post(`${b}/team/invite`).set(read).send({ email: 'z@example.com' }),
      ctx.request().post(`${b}/api-keys`).set(read).send({ name: 'y' }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status, requestLine(res)).toBe(403);
    const { rows } = await ctx.db.pool.query('SELECT count(*)::int AS n FROM activity WHERE business_id = $1', [
      t.business.id,
    ]);
    expect(rows[0].n).toBe(3); // two keys and the one suggestion
  });

  it('When an API key or a member manages keys, then it is a 403; see business-access.test.ts for every route and role', async () => {
    const t = await buildTeam(ctx.db);
    for (const token of [t.write, t.read, t.member.token]) {
      expect(
        (
          await ctx
            .request()
            .post(`/businesses/${t.business.id}/api-keys`)
            .set('Authorization', `Bearer ${token}`)
            .send({ name: 'k' })
        ).status,
      ).toBe(403);
    }
  });
});

describe('injection', () => {
  /**
   * What the service does with each payload follows from the text rules (src/shared/schemas.ts):
   * text is trimmed, must not be empty and must not hold U+0000, which PostgreSQL text cannot store;
   * a one-line field (a name, a title, a label) holds no control character or line break either.
   * Nothing else is refused: quotes, SQL, format strings and markup are data, and so are control
   * characters in free text (content, a description).
   * No payload here starts or ends with whitespace, so trimming leaves each one as it is.
   */
  const STORED = [
    "'; DROP TABLE suggestions; --",
    'Robert"); DELETE FROM api_keys WHERE ("1"="1',
    '$1 $2 \\x00 %s %n {{7*7}} ${7*7}',
    '<script>alert(1)</script>',
    "' OR '1'='1",
  ];
  const CONTROL = 'tab\there\r\nnew line\u0007bell\u001b[31m';
  const REFUSED = ['nul\u0000byte'];
  const NOT_ONE_LINE = 'must be one line: no line breaks, control characters or bidi overrides';

  const owner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

  /**
   * A payload in a query string: as a search it is reduced to its letters and digits (a 200); as an
   * enum, a sort or a date it is a 400 naming the parameter; as an id, a 404.
   */
  async function expectQueriesHandled(t: Team, payload: string) {
    const list = (query: object) => ctx.request().get('/api/v1/suggestions').query(query).set('X-API-Key', t.read);
    expect((await list({ q: payload })).status).toBe(200);
    for (const name of ['status', 'sort', 'since', 'order']) {
      const res = await list({ [name]: payload });
      expect(res.status, name).toBe(400);
      expect(res.body.message).toContain(name);
    }
    const byId = await ctx
      .request()
      .get(`/api/v1/suggestions/${encodeURIComponent(payload)}`)
      .set('X-API-Key', t.read);
    expect(byId.status).toBe(404);
  }

  /** The tables are still there and the business holds exactly what the test expects: nothing ran as SQL. */
  async function expectRows(t: Team, expected: { suggestions: number; issues: number; qr_codes: number }) {
    const { rows } = await ctx.db.pool.query(
      `SELECT to_regclass('suggestions') IS NOT NULL AND to_regclass('api_keys') IS NOT NULL AS tables,
              (SELECT count(*)::int FROM api_keys WHERE business_id = $1) AS keys,
              (SELECT count(*)::int FROM suggestions WHERE business_id = $1) AS suggestions,
              (SELECT count(*)::int FROM issues WHERE business_id = $1) AS issues,
              (SELECT count(*)::int FROM qr_codes WHERE business_id = $1) AS qr_codes`,
      [t.business.id],
    );
    expect(rows[0]).toEqual({ tables: true, keys: 2, ...expected });
  }

  it.each(STORED)(
    'When string fields carry %j, then it is stored and read back byte for byte, never executed',
    async (payload) => {
      expect(payload.trim()).toBe(payload);
      const t = await buildTeam(ctx.db);
      const b = `/businesses/${t.business.id}`;

      const created = await ctx
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .send({ content: payload, customer_name: payload });
      expect(created.status, created.text).toBe(201);
      const suggestion = await ctx.request().get(`/api/v1/suggestions/${created.body.id}`).set('X-API-Key', t.read);
      expect([suggestion.body.content, suggestion.body.customer_name]).toEqual([payload, payload]);
      const { rows } = await ctx.db.pool.query<{ content: Buffer; customer_name: Buffer }>(
        `SELECT convert_to(content, 'UTF8') AS content, convert_to(customer_name, 'UTF8') AS customer_name
         FROM suggestions WHERE id = $1`,
        [created.body.id],
      );
      expect(rows).toEqual([{ content: Buffer.from(payload), customer_name: Buffer.from(payload) }]);

      const issue = await ctx
        .request()
        .post(`${b}/issues`)
        .set(owner(t))
        .send({ title: payload, description: payload });
      expect(issue.status, issue.text).toBe(201);
      const readIssue = await ctx.request().get(`${b}/issues/${issue.body.id}`).set(owner(t));
      expect([readIssue.body.title, readIssue.body.description]).toEqual([payload, payload]);

      const qr = await ctx.request().post(`${b}/qr-codes`).set(owner(t)).send({ label: payload });
      expect(qr.status, qr.text).toBe(201);
      expect((await ctx.request().get(`${b}/qr-codes/${qr.body.id}`).set(owner(t))).body.label).toBe(payload);

      await expectQueriesHandled(t, payload);
      await expectRows(t, { suggestions: 1, issues: 1, qr_codes: 1 });
    },
  );

  it('When free text carries control characters and line breaks, then it is stored byte for byte; a one-line field refuses them', async () => {
    const t = await buildTeam(ctx.db);
    const b = `/businesses/${t.business.id}`;
    const created = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: CONTROL, customer_name: 'Ana' });
    expect(created.status, created.text).toBe(201);
    const { rows } = await ctx.db.pool.query<{ content: Buffer }>(
      `SELECT convert_to(content, 'UTF8') AS content FROM suggestions WHERE id = $1`,
      [created.body.id],
    );
    expect(rows).toEqual([{ content: Buffer.from(CONTROL) }]);
    const issue = await ctx.request().post(`${b}/issues`).set(owner(t)).send({ title: 'Door', description: CONTROL });
    expect(issue.status, issue.text).toBe(201);
    expect((await ctx.request().get(`${b}/issues/${issue.body.id}`).set(owner(t))).body.description).toBe(CONTROL);

    const oneLine: [supertest.Test, string][] = [
      [
        ctx
          .request()
          .post('/api/v1/suggestions')
          .set('X-API-Key', t.write)
          .send({ content: 'Hi', customer_name: CONTROL }),
        'customer_name',
      ],
      [ctx.request().post(`${b}/issues`).set(owner(t)).send({ title: CONTROL }), 'title'],
      [ctx.request().post(`${b}/qr-codes`).set(owner(t)).send({ label: CONTROL }), 'label'],
    ];
    for (const [write, field] of oneLine) {
      const res = await write;
      expect(res.status, requestLine(res)).toBe(400);
      expect(res.body.message).toBe(`Validation failed: ${field}: ${NOT_ONE_LINE}`);
    }
    await expectQueriesHandled(t, CONTROL);
    await expectRows(t, { suggestions: 1, issues: 1, qr_codes: 0 });
  });

  it.each(REFUSED)(
    'When string fields carry %j, then every write refuses it with a 400 naming each field and nothing is stored',
    async (payload) => {
      const t = await buildTeam(ctx.db);
      const b = `/businesses/${t.business.id}`;
      const writes: [Promise<supertest.Response>, string[]][] = [
        [
          ctx
            .request()
            .post('/api/v1/suggestions')
            .set('X-API-Key', t.write)
            .send({ content: payload, customer_name: payload }),
          ['content', 'customer_name'],
        ],
        [
          ctx.request().post(`${b}/issues`).set(owner(t)).send({ title: payload, description: payload }),
          ['title', 'description'],
        ],
        [ctx.request().post(`${b}/qr-codes`).set(owner(t)).send({ label: payload }), ['label']],
      ];
      // Free text cannot hold U+0000 (PostgreSQL text cannot store it); a one-line field holds no control character.
      const oneLine = new Set(['customer_name', 'title', 'label']);
      for (const [write, fields] of writes) {
        const res = await write;
        expect(res.status, requestLine(res)).toBe(400);
        for (const field of fields) {
          const reason = oneLine.has(field) ? NOT_ONE_LINE : 'must not contain the NUL character';
          expect(res.body.message).toContain(`${field}: ${reason}`);
        }
      }

      await expectQueriesHandled(t, payload);
      await expectRows(t, { suggestions: 0, issues: 0, qr_codes: 0 });
    },
  );
});

describe('CORS and transport headers', () => {
  it('When CORS_ORIGINS is unset, then no cross-origin header is ever sent', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .get('/api/v1/suggestions')
      .set('Origin', 'https://evil.example')
      .set('X-API-Key', t.read);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await ctx
      .request()
      .options('/api/v1/suggestions')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('When an origin is allow-listed, then only it is allowed, preflights included', async () => {
    const app = createApp({
      db: ctx.db,
      logger: createLogger('silent'),
      config: { CORS_ORIGINS: ['https://dash.example.com'] },
    });
    const t = await buildTeam(ctx.db);
    const ok = await supertest(app)
      .get('/api/v1/suggestions')
      .set('Origin', 'https://dash.example.com')
      .set('X-API-Key', t.read);
    expect(ok.headers['access-control-allow-origin']).toBe('https://dash.example.com');
    expect(ok.headers['access-control-expose-headers']).toContain('RateLimit');
    const preflight = await supertest(app)
      .options('/api/v1/suggestions')
      .set('Origin', 'https://dash.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'X-API-Key, Content-Type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('X-API-Key');
    const other = await supertest(app)
      .get('/api/v1/suggestions')
      .set('Origin', 'https://evil.example')
      .set('X-API-Key', t.read);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('When a dashboard script on an allowed origin sends an Idempotency-Key, then the preflight allows it and the replay is readable', async () => {
    const app = createApp({
      db: ctx.db,
      logger: createLogger('silent'),
      config: { CORS_ORIGINS: ['https://dash.example.com'] },
    });
    const t = await buildTeam(ctx.db);
    const preflight = await supertest(app)
      .options('/api/v1/suggestions')
      .set('Origin', 'https://dash.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'X-API-Key, Content-Type, Idempotency-Key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Idempotency-Key');
    const created = await supertest(app)
      .post('/api/v1/suggestions')
      .set('Origin', 'https://dash.example.com')
      .set('X-API-Key', t.write)
      .set('Idempotency-Key', crypto.randomUUID())
      .send({ content: 'From the dashboard' });
    expect(created.status).toBe(201);
    const exposed = created.headers['access-control-expose-headers'] as string;
    expect(exposed.split(',').map((name) => name.trim())).toEqual(
      expect.arrayContaining(['Idempotent-Replayed', 'Idempotent-Replay-Withheld']),
    );
  });

  it('When any route answers, then helmet headers and Cache-Control: no-store are there', async () => {
    const t = await buildTeam(ctx.db);
    for (const res of [
      await ctx.request().get(`/businesses/${t.business.id}/team`).set('Authorization', `Bearer ${t.ownerToken}`),
      await ctx.request().post('/auth/login').send({ email: 'x@example.com', password: 'nope' }),
      await ctx.request().get('/nope'),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeDefined();
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});
