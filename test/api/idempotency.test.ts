import type { Express } from 'express';
import supertest from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { fingerprintOf, scopeOf } from '../../src/idempotency/idempotency.key.js';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import { checked } from '../support/contract.js';
import { testMode } from '../support/database.js';
import { buildTeam, buildTenant, buildUser, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();

/** The clock of the app under test: tests move it forward to age stored responses. */
let clockOffsetMs = 0;
/** When set, the next keyed request waits here once it has claimed its key, at this stage. */
let hold: { stage: 'registered' | 'locked'; claimed: () => void; release: Promise<void> } | undefined;

let app: Express;
beforeAll(() => {
  const { logger } = capturingLogger();
  const rateLimiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
  app = createApp({
    db: ctx.db,
    logger,
    rateLimiters,
    idempotency: {
      now: () => new Date(Date.now() + clockOffsetMs),
      onClaim: async (stage) => {
        const held = hold;
        if (held?.stage !== stage) return;
        hold = undefined;
        held.claimed();
        await held.release;
      },
    },
  });
});
const request = () => checked(supertest.agent(app));

/**
 * Holds the next keyed request once it has claimed its key; `release` lets it go on. At `locked` it
 * holds the database's only connection when that is the embedded one: nothing else can then run.
 */
function holdNext(stage: 'registered' | 'locked' = 'registered') {
  let claimed!: () => void;
  let release!: () => void;
  const wasClaimed = new Promise<void>((resolve) => (claimed = resolve));
  hold = { stage, claimed, release: new Promise<void>((resolve) => (release = resolve)) };
  return { wasClaimed, release };
}

const key = () => crypto.randomUUID();

async function count(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await ctx.db.pool.query<{ n: number }>(sql, values);
  return rows[0]!.n;
}
const suggestions = (businessId: string) =>
  count('SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1', [businessId]);
const activities = (businessId: string, type: string) =>
  count('SELECT count(*)::int AS n FROM activity WHERE business_id = $1 AND type = $2', [businessId, type]);

describe('Idempotency-Key', () => {
  it('When a create is retried with its key, then the stored response comes back unchanged and nothing is created again', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = () =>
      request().post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content: 'Hi' });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await suggestions(t.business.id)).toBe(1);
    expect(await activities(t.business.id, 'suggestion.created')).toBe(1);
  });

  it('When a comment is retried with its key, then there is still one comment and one activity row', async () => {
    const t = await buildTenant(ctx.db);
    const created = await request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Parent' });
    const path = `/api/v1/suggestions/${created.body.id}/comments`;
    const k = key();
    const send = () =>
      request().post(path).set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content: 'Yes' });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    const comments = await count('SELECT count(*)::int AS n FROM comments WHERE entity_id = $1', [created.body.id]);
    expect(comments).toBe(1);
    expect(await activities(t.business.id, 'suggestion.commented')).toBe(1);
  });

  it('When a PATCH is retried with its key after another change, then the first answer is replayed and not reapplied', async () => {
    const t = await buildTenant(ctx.db);
    const created = await request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Fix it' });
    const path = `/api/v1/suggestions/${created.body.id}`;
    const k = key();
    const first = await request()
      .patch(path)
      .set('X-API-Key', t.write)
      .set('Idempotency-Key', k)
      .send({ status: 'completed' });
    await request().patch(path).set('X-API-Key', t.write).send({ status: 'reviewing' });
    const again = await request()
      .patch(path)
      .set('X-API-Key', t.write)
      .set('Idempotency-Key', k)
      .send({ status: 'completed' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await request().get(path).set('X-API-Key', t.read)).body.status).toBe('reviewing');
  });

  it('When an invite is retried with its key, then one message is queued, and sent once the invite commits', async () => {
    const team = await buildTeam(ctx.db);
    const email = uniqueEmail('invitee');
    const k = key();
    const send = () =>
      request()
        .post(`/businesses/${team.business.id}/team/invite`)
        .set('Authorization', `Bearer ${team.ownerToken}`)
        .set('Idempotency-Key', k)
        .send({ email, role: 'member' });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const status = async () =>
      (await ctx.db.pool.query<{ status: string }>('SELECT status FROM mail_outbox WHERE recipient = $1', [email]))
        .rows;
    for (let tries = 0; tries < 100 && (await status())[0]?.status === 'pending'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await status()).toEqual([{ status: 'sent' }]);
  });

  it('When stored responses expire, then the purge deletes them a small batch at a time', async () => {
    const t = await buildTenant(ctx.db);
    const keys = [key(), key(), key()];
    for (const k of keys) {
      await request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', k)
        .send({ content: k });
    }
    const scopes = keys.map((k) =>
      scopeOf({
        credential: `key:${t.writeKey.id}`,
        method: 'POST',
        path: '/api/v1/suggestions',
        url: '',
        body: {},
        key: k,
      }),
    );
    const aged = await ctx.db.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE scope = ANY($1)`,
      [scopes],
    );
    expect(aged.rowCount).toBe(3);
    const purger = new IdempotencyStore(ctx.db.pool, { ttlHours: 24, now: () => new Date() });
    expect(await purger.purgeExpired(2, 1)).toBe(2);
    await purger.purgeExpired(2, 10);
    const left = await ctx.db.pool.query('SELECT 1 FROM idempotency_keys WHERE scope = ANY($1)', [scopes]);
    expect(left.rowCount).toBe(0);
  });

  it('When the key comes back with another body, then it is a 422 and nothing is created', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = (content: string) =>
      request().post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content });
    expect((await send('One')).status).toBe(201);
    const other = await send('Two');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/different/) });
    expect(await suggestions(t.business.id)).toBe(1);
  });

  it('When the same JSON comes back with its fields in another order, then it is the same request', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = (body: string) =>
      request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', k)
        .set('Content-Type', 'application/json')
        .send(body);
    expect((await send('{"content":"Hi","priority":"high"}')).status).toBe(201);
    const again = await send('{ "priority": "high", "content": "Hi" }');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('When a request with the key is still running, then a second one is a 409 with Retry-After: 1', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = () =>
      request().post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content: 'Hi' });
    const { wasClaimed, release } = holdNext();
    const first = send().then((res) => res);
    await wasClaimed;
    const second = await send();
    expect(second.status).toBe(409);
    expect(second.headers['retry-after']).toBe('1');
    expect(second.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    release();
    expect((await first).status).toBe(201);
    const third = await send();
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(await suggestions(t.business.id)).toBe(1);
  });

  it('When 50 requests with one key arrive together, then one suggestion and one activity row exist', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request()
          .post('/api/v1/suggestions')
          .set('X-API-Key', t.write)
          .set('Idempotency-Key', k)
          .send({ content: 'Once' }),
      ),
    );
    const created = responses.filter((res) => res.status === 201);
    expect(responses.every((res) => res.status === 201 || res.status === 409)).toBe(true);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((res) => res.body.id)).size).toBe(1);
    expect(await suggestions(t.business.id)).toBe(1);
    expect(await activities(t.business.id, 'suggestion.created')).toBe(1);
  });

  it('When two credentials send the same key, then each gets its own create', async () => {
    const team = await buildTeam(ctx.db);
    const k = key();
    const viaKey = await request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', team.write)
      .set('Idempotency-Key', k)
      .send({ content: 'Same' });
    const path = `/businesses/${team.business.id}/suggestions`;
    const viaAdmin = await request()
      .post(path)
      .set('Authorization', `Bearer ${team.admin.token}`)
      .set('Idempotency-Key', k)
      .send({ content: 'Same' });
    const viaOwner = await request()
      .post(path)
      .set('Authorization', `Bearer ${team.ownerToken}`)
      .set('Idempotency-Key', k)
      .send({ content: 'Same' });
    expect([viaKey.status, viaAdmin.status, viaOwner.status]).toEqual([201, 201, 201]);
    expect(new Set([viaKey.body.id, viaAdmin.body.id, viaOwner.body.id]).size).toBe(3);
    expect(await suggestions(team.business.id)).toBe(3);
  });

  it('When the stored response has expired, then the key runs the request again', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = (content: string) =>
      request().post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content });
    const first = await send('First');
    clockOffsetMs += 23 * 3_600_000;
    expect((await send('First')).headers['idempotent-replayed']).toBe('true');
    clockOffsetMs += 3_600_000;
    const later = await send('Second');
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await suggestions(t.business.id)).toBe(2);
  });

  it('When a request is refused by validation, then its retry gets the same 400 back', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = () =>
      request().post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content: '' });
    const first = await send();
    expect(first.status).toBe(400);
    const again = await send();
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('When a request is refused for its role, then the refusal is not stored and a retry after promotion runs', async () => {
    const t = await buildTenant(ctx.db);
    const member = await buildUser(ctx.db, t.business.id, 'member');
    const k = key();
    const send = () =>
      request()
        .post(`/businesses/${t.business.id}/locations`)
        .set('Authorization', `Bearer ${member.token}`)
        .set('Idempotency-Key', k)
        .send({ name: 'Terrace' });
    expect((await send()).status).toBe(403);
    await ctx.db.pool.query('UPDATE memberships SET role = $1 WHERE user_id = $2', ['admin', member.id]);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('When a create is retried with its path in another case or with a trailing slash, then it is replayed, not created again', async () => {
    const team = await buildTeam(ctx.db);
    const k = key();
    const send = (path: string) =>
      request().post(path).set('X-API-Key', team.write).set('Idempotency-Key', k).send({ content: 'Once' });
    const first = await send('/api/v1/suggestions');
    expect(first.status).toBe(201);
    for (const path of ['/API/V1/Suggestions/', '/api/v1/suggestions/', '/Api/v1/SUGGESTIONS']) {
      const again = await send(path);
      expect(again.status, path).toBe(201);
      expect(again.headers['idempotent-replayed'], path).toBe('true');
      expect(again.text, path).toBe(first.text);
    }
    // The business's id in another case names the same business: the same request again.
    const owner = (path: string) =>
      request()
        .post(path)
        .set('Authorization', `Bearer ${team.ownerToken}`)
        .set('Idempotency-Key', k)
        .send({ content: 'Once' });
    const viaOwner = await owner(`/businesses/${team.business.id}/suggestions`);
    const upper = await owner(`/Businesses/${team.business.id.toUpperCase()}/Suggestions/`);
    expect([viaOwner.status, upper.status]).toEqual([201, 201]);
    expect(upper.headers['idempotent-replayed']).toBe('true');
    expect(upper.body.id).toBe(viaOwner.body.id);
    expect(await suggestions(team.business.id)).toBe(2);
  });

  it('When a webhook create or a secret rotation is replayed, then the secret is not shown again, and says so', async () => {
    const team = await buildTeam(ctx.db);
    const hooks = `/businesses/${team.business.id}/webhooks`;
    const k = key();
    const create = () =>
      request()
        .post(hooks)
        .set('Authorization', `Bearer ${team.ownerToken}`)
        .set('Idempotency-Key', k)
        .send({ url: 'https://hooks.example.com/in', events: ['*'] });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(first.headers['idempotent-replay-withheld']).toBeUndefined();
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['idempotent-replay-withheld']).toBe('secret');
    expect(again.body).toEqual({ ...first.body, secret: null });

    const rotateKey = key();
    const rotate = () =>
      request()
        .post(`${hooks}/${first.body.id}/rotate-secret`)
        .set('Authorization', `Bearer ${team.ownerToken}`)
        .set('Idempotency-Key', rotateKey);
    const rotated = await rotate();
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const rotatedAgain = await rotate();
    expect(rotatedAgain.headers['idempotent-replay-withheld']).toBe('secret');
    expect(rotatedAgain.body).toEqual({ ...rotated.body, secret: null });

    // Nor is either secret kept with the stored responses.
    const { rows } = await ctx.db.pool.query<{ body: string }>('SELECT body FROM idempotency_keys WHERE body LIKE $1', [
      `%${first.body.id}%`,
    ]);
    expect(rows).toHaveLength(1);
    for (const secret of [first.body.secret as string, rotated.body.secret as string]) {
      const stored = await count('SELECT count(*)::int AS n FROM idempotency_keys WHERE body LIKE $1', [
        `%${secret.slice(6)}%`,
      ]);
      expect(stored).toBe(0);
    }
  });

  it('When the key is quoted as a structured-field string, then it is the same key as the bare token', async () => {
    const t = await buildTenant(ctx.db);
    const k = key();
    const send = (header: string) =>
      request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', header)
        .send({ content: 'Quoted' });
    expect((await send(k)).status).toBe(201);
    expect((await send(`"${k}"`)).headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['an unterminated quote', '"abc'],
    ['an empty quoted string', '""'],
  ])('When the key is %s, then it is a 400 and nothing is created', async (_case, header) => {
    const t = await buildTenant(ctx.db);
    const res = await request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .set('Idempotency-Key', header)
      .send({ content: 'Hi' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(await suggestions(t.business.id)).toBe(0);
  });

  // The lock and the lookup share a statement, whose snapshot predates the lock: a response the lock's
  // previous holder (another instance) commits in between is found only when this one stores its own.
  // Held at `locked`, the request has its lock and has seen no response; the row is then written as
  // that instance's commit would have written it. PostgreSQL only: the embedded database's one
  // connection is the held request's.
  describe.runIf(testMode() === 'postgres')('when a response commits between the lookup and the lock', () => {
    async function raceWith(storedBody: unknown) {
      const t = await buildTenant(ctx.db);
      const k = key();
      const keyed = { credential: `key:${t.writeKey.id}`, method: 'POST', path: '/api/v1/suggestions', key: k };
      const stored = JSON.stringify({ id: 'from-the-other-instance' });
      const { wasClaimed, release } = holdNext('locked');
      // Unchecked: the stored body is a stand-in, not a suggestion of the OpenAPI document.
      const answer = supertest(app)
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', k)
        .send({ content: 'Hi' })
        .then((res) => res);
      await wasClaimed;
      await ctx.db.pool.query(
        `INSERT INTO idempotency_keys (scope, fingerprint, status, content_type, location, body, created_at)
         VALUES ($1, $2, 201, 'application/json; charset=utf-8', '/api/v1/suggestions/x', $3, $4)`,
        [
          scopeOf({ ...keyed, url: '', body: {} }),
          fingerprintOf({ ...keyed, url: '/api/v1/suggestions', body: storedBody }),
          stored,
          new Date(Date.now() + clockOffsetMs),
        ],
      );
      release();
      return { t, res: await answer, stored };
    }

    it('When it was this request, then its own create is rolled back and that response is replayed', async () => {
      const { t, res, stored } = await raceWith({ content: 'Hi' });
      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.headers.location).toBe('/api/v1/suggestions/x');
      expect(res.text).toBe(stored);
      expect(await suggestions(t.business.id)).toBe(0);
      expect(await activities(t.business.id, 'suggestion.created')).toBe(0);
    });

    it('When it was another request, then this one is a 422 and its create is rolled back', async () => {
      const { t, res } = await raceWith({ content: 'Something else' });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await suggestions(t.business.id)).toBe(0);
    });
  });

  it.runIf(testMode() === 'postgres')(
    'When another instance is running the key, then this one answers 409',
    async () => {
      const other = openPostgres(process.env.TEST_DATABASE_URL!, () => undefined, 2);
      try {
        const { logger } = capturingLogger();
        const rateLimiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
        const otherApp = createApp({ db: other, logger, rateLimiters });
        const t = await buildTenant(ctx.db);
        const k = key();
        const send = (agent: supertest.Agent) =>
          agent.post('/api/v1/suggestions').set('X-API-Key', t.write).set('Idempotency-Key', k).send({ content: 'Hi' });
        const { wasClaimed, release } = holdNext('locked');
        const first = send(request()).then((res) => res);
        await wasClaimed;
        const second = await send(checked(supertest.agent(otherApp)));
        expect(second.status).toBe(409);
        expect(second.headers['retry-after']).toBe('1');
        release();
        expect((await first).status).toBe(201);
        expect((await send(checked(supertest.agent(otherApp)))).headers['idempotent-replayed']).toBe('true');
        await rateLimiters.close();
      } finally {
        await other.close();
      }
    },
  );
});
