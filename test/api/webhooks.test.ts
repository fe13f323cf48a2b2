import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { readMigrations } from '../../src/db/migrate.js';
import { DISABLE_AFTER_MS, PER_ENDPOINT, RETRY_SCHEDULE_MS, WebhookWorker } from '../../src/webhooks/webhook.worker.js';
import { capturingLogger, useOtherApps, useTestApp, type OtherApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';
import { feedEvents } from '../support/feed.js';
import { useReceivers, type Receiver, type Received, type Reply } from '../support/receiver.js';

const ctx = useTestApp();
const otherApps = useOtherApps(ctx);
const startReceiver = useReceivers();
/** The service as run in development: webhooks may reach loopback, where the receivers listen. */
let dev: OtherApp;
beforeAll(() => {
  dev = otherApps({ config: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true }, limit: 100_000, failedAuthLimit: 100_000 });
});

type Team = Awaited<ReturnType<typeof buildTeam>>;
const hooks = (t: Team) => `/businesses/${t.business.id}/webhooks`;
const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

/** A worker on the business alone, with a clock the test moves and no jitter. */
function workerFor(t: Team, start = new Date(), allowPrivateNetworks = true) {
  const clock = { now: start };
  const worker = new WebhookWorker(ctx.db, capturingLogger().logger, {
    allowPrivateNetworks,
    businessIds: [t.business.id],
    clock: () => clock.now,
    random: () => 0,
  });
  const at = (ms: number) => {
    clock.now = new Date(start.getTime() + ms);
  };
  return { worker, clock, at };
}

async function createHook(t: Team, receiver: Receiver, events: string[] = ['*']) {
  const res = await dev.request().post(hooks(t)).set(asOwner(t)).send({ url: receiver.url, events });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string; active: boolean };
}

async function createSuggestion(t: Team, content = 'Oat milk please') {
  const res = await dev.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function deliveries(t: Team, hookId: string) {
  const res = await dev
    .request()
    .get(`${hooks(t)}/${hookId}/deliveries`)
    .set(asOwner(t));
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Record<string, unknown>[] }).data;
}

async function readHook(t: Team, hookId: string) {
  const res = await dev
    .request()
    .get(`${hooks(t)}/${hookId}`)
    .set(asOwner(t));
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('Webhook endpoints', () => {
  it('When an owner creates one, then the secret is shown once and never again', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const created = await createHook(t, receiver, ['suggestion.created', 'issue.updated']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ active: true, events: ['suggestion.created', 'issue.updated'] });
    const listed = await dev.request().get(hooks(t)).set(asOwner(t));
    expect(listed.body.total).toBe(1);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    expect(JSON.stringify(await readHook(t, created.id))).not.toContain('whsec_');
  });

  it('When changed and deleted, then the changes show and the endpoint is gone', async () => {
    const t = await buildTeam(ctx.db);
    const created = await createHook(t, await startReceiver());
    const res = await dev
      .request()
      .patch(`${hooks(t)}/${created.id}`)
      .set(asOwner(t))
      .send({ events: ['qr_code.created'], description: 'Desk', active: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ events: ['qr_code.created'], description: 'Desk', active: false });
    expect(
      (
        await dev
          .request()
          .delete(`${hooks(t)}/${created.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(204);
    expect(
      (
        await dev
          .request()
          .get(`${hooks(t)}/${created.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(404);
  });

  it('When an API key or a member tries to manage webhooks, then a 403 refuses it', async () => {
    const t = await buildTeam(ctx.db);
    const body = { url: 'https://hooks.example.com/x', events: ['*'] };
    const byKey = await ctx.request().post(hooks(t)).set('X-API-Key', t.write).send(body);
    expect(byKey.status).toBe(403);
    expect(byKey.body.message).toMatch(/API keys cannot manage webhooks/);
    const listByKey = await ctx.request().get(hooks(t)).set('X-API-Key', t.read);
    expect(listByKey.status).toBe(403);
    const byMember = await ctx.request().post(hooks(t)).set('Authorization', `Bearer ${t.member.token}`).send(body);
    expect(byMember.status).toBe(403);
    const byAdmin = await ctx.request().post(hooks(t)).set('Authorization', `Bearer ${t.admin.token}`).send(body);
    expect(byAdmin.status).toBe(201);
  });

  it('When the URL is not https to a public address (private networks not allowed), then a 400 says why', async () => {
    const t = await buildTeam(ctx.db);
    for (const url of [
      'ftp://hooks.example.com/x',
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://user:pass@hooks.example.com/x',
      'not a url',
    ]) {
      const res = await ctx
        .request()
        .post(hooks(t))
        .set(asOwner(t))
        .send({ url, events: ['*'] });
      expect(res.status, url).toBe(400);
    }
    const unknownType = await ctx
      .request()
      .post(hooks(t))
      .set(asOwner(t))
      .send({ url: 'https://hooks.example.com/x', events: ['suggestion.exploded'] });
    expect(unknownType.status).toBe(400);
  });
});

describe('Webhook delivery', () => {
  it('When an event happens, then the receiver gets it signed, and the standardwebhooks package verifies it', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    const suggestion = await createSuggestion(t);
    const { worker } = workerFor(t);
    expect(await worker.runDue()).toBe(1);
    const [got] = receiver.received;
    const payload = new Webhook(hook.secret).verify(got!.body, got!.headers) as {
      type: string;
      timestamp: string;
      data: { object: { id: string } };
    };
    expect(payload.type).toBe('suggestion.created');
    expect(payload.data.object.id).toBe(suggestion.id);
    const [event] = await feedEvents(() => dev.request(), t.read, 1);
    expect(got!.headers['webhook-id']).toBe(event!.id);
    expect(payload.timestamp).toBe(event!.created_at);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(got!.body, got!.headers)).toThrow();
    expect((await deliveries(t, hook.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      last_status_code: 204,
    });
  });

  it('When suggestions are merged and unmerged, then a hook that takes those events receives them', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    await createHook(t, receiver, ['suggestion.merged', 'suggestion.unmerged']);
    const target = await createSuggestion(t, 'Oat milk please');
    const source = await createSuggestion(t, 'Please, oat milk');
    const merged = await dev
      .request()
      .post(`/api/v1/suggestions/${target.id}/merge`)
      .set('X-API-Key', t.write)
      .send({ source_ids: [source.id] });
    expect(merged.status).toBe(200);
    const unmerged = await dev.request().post(`/api/v1/suggestions/${source.id}/unmerge`).set('X-API-Key', t.write);
    expect(unmerged.status).toBe(200);
    const { worker } = workerFor(t);
    expect(await worker.runDue()).toBe(2);
    const bodies = receiver.received.map(
      (got) => JSON.parse(got.body) as { type: string; data: { object: { id: string }; changes: object } },
    );
    // delivered concurrently: in either order
    const byType = bodies.sort((a, b) => a.type.localeCompare(b.type));
    expect(byType.map((body) => [body.type, body.data.object.id, body.data.changes])).toEqual([
      ['suggestion.merged', source.id, { merged_into: { from: null, to: target.id } }],
      ['suggestion.unmerged', source.id, { merged_into: { from: target.id, to: null } }],
    ]);
  });

  it('When a worker is started, then it is woken by a new event and delivers it without a poll', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    await createHook(t, receiver);
    const worker = new WebhookWorker(ctx.db, capturingLogger().logger, {
      allowPrivateNetworks: true,
      businessIds: [t.business.id],
      // Far longer than the test: only the wake-up (NOTIFY, or in-process when embedded) can deliver it.
      pollIntervalMs: 3_600_000,
    });
    worker.start();
    try {
      await worker.runDue(); // the start's own run is over: what follows is the wake-up's doing
      await createSuggestion(t);
      const got = await receiver.nth(1);
      expect(JSON.parse(got.body)).toMatchObject({ type: 'suggestion.created' });
    } finally {
      await worker.stop();
    }
  });

  it('When an endpoint takes only some types, then it receives only those', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    await createHook(t, receiver, ['qr_code.created']);
    await createSuggestion(t);
    await dev.request().post(`/businesses/${t.business.id}/qr-codes`).set(asOwner(t)).send({ label: 'Door' });
    await workerFor(t).worker.runDue();
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['qr_code.created']);
  });

  it('When the secret is rotated, then both secrets verify for 24 hours, and only the new one after', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    const rotated = await dev
      .request()
      .post(`${hooks(t)}/${hook.id}/rotate-secret`)
      .set(asOwner(t));
    expect(rotated.status, rotated.text).toBe(200);
    const { secret } = rotated.body as { secret: string };
    expect(secret).not.toBe(hook.secret);
    await createSuggestion(t);
    const { worker, at } = workerFor(t);
    await worker.runDue();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(hook.secret).verify(during.body, during.headers)).toBeTruthy();
    // A day later only the new secret signs (the package's own time check would refuse a future timestamp).
    await createSuggestion(t, 'Another one');
    at(24 * 3_600_000 + 1000);
    await worker.runDue();
    const after = receiver.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    const expected = new Webhook(secret).sign(
      after.headers['webhook-id']!,
      new Date(Number(after.headers['webhook-timestamp']) * 1000),
      after.body,
    );
    expect(after.headers['webhook-signature']).toBe(expected);
  });

  it('When the receiver keeps failing, then attempts follow the schedule, with the same webhook-id, then stop', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = () => ({ status: 500 });
    const hook = await createHook(t, receiver);
    await createSuggestion(t);
    const { worker, at } = workerFor(t);
    await worker.runDue();
    let elapsed = 0;
    for (const [index, wait] of RETRY_SCHEDULE_MS.entries()) {
      const [delivery] = await deliveries(t, hook.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: index + 1, last_status_code: 500 });
      expect(Date.parse(delivery!.next_attempt_at as string) - Date.parse(delivery!.last_attempt_at as string)).toBe(
        wait,
      );
      at(elapsed + wait - 1000);
      expect(await worker.runDue()).toBe(0);
      elapsed += wait;
      at(elapsed);
      expect(await worker.runDue()).toBe(1);
    }
    const [last] = await deliveries(t, hook.id);
    expect(last).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received).toHaveLength(8);
  });

  it('When the receiver answers 429 or 503 with Retry-After, then the next attempt waits at least that long', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    await createSuggestion(t);
    const start = new Date();
    const replies: Record<string, string>[] = [
      { 'Retry-After': '120' },
      { 'Retry-After': new Date(start.getTime() + 3_600_000).toUTCString() },
    ];
    let n = 0;
    receiver.reply = () => ({ status: n++ === 0 ? 503 : 429, headers: replies[n - 1] });
    const { worker, at } = workerFor(t, start);
    await worker.runDue();
    let [delivery] = await deliveries(t, hook.id);
    expect(Date.parse(delivery!.next_attempt_at as string) - start.getTime()).toBe(120_000);
    at(120_000);
    await worker.runDue();
    [delivery] = await deliveries(t, hook.id);
    // An HTTP date an hour after the start: longer than the 5 minutes the schedule says.
    const wait = Date.parse(delivery!.next_attempt_at as string) - (start.getTime() + 120_000);
    expect(wait).toBeGreaterThanOrEqual(3_600_000 - 120_000 - 1000);
    expect(wait).toBeGreaterThan(RETRY_SCHEDULE_MS[1]!);
  });

  it('When the receiver answers 410, then the endpoint is disabled at once and a webhook.disabled event is recorded', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = () => ({ status: 410 });
    const hook = await createHook(t, receiver);
    await createSuggestion(t);
    await workerFor(t).worker.runDue();
    expect(await readHook(t, hook.id)).toMatchObject({ active: false, disabled_reason: 'gone' });
    expect((await deliveries(t, hook.id))[0]).toMatchObject({ status: 'failed', last_status_code: 410 });
    const [disabled] = await feedEvents(() => dev.request(), t.read, 1, { query: { type: 'webhook.disabled' } });
    expect(disabled?.data.object).toMatchObject({ id: hook.id, active: false, disabled_reason: 'gone' });
    await createSuggestion(t, 'After the 410');
    expect(await workerFor(t).worker.runDue()).toBe(0);
    expect(await deliveries(t, hook.id)).toHaveLength(1);
  });

  it('When an endpoint is disabled, then its webhook.disabled event does not show the URL to a read key', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = () => ({ status: 410 });
    const url = `${receiver.url}?token=hook-credential-123`;
    const res = await dev
      .request()
      .post(hooks(t))
      .set(asOwner(t))
      .send({ url, events: ['*'], description: 'Desk' });
    expect(res.status, res.text).toBe(201);
    await createSuggestion(t);
    await workerFor(t).worker.runDue();
    const [disabled] = await feedEvents(() => dev.request(), t.read, 1, { query: { type: 'webhook.disabled' } });
    expect(disabled?.data.object).toEqual({
      id: (res.body as { id: string }).id,
      events: ['*'],
      description: 'Desk',
      active: false,
      disabled_reason: 'gone',
      created_at: expect.any(String) as string,
      updated_at: expect.any(String) as string,
    });
    expect(JSON.stringify(disabled)).not.toContain('hook-credential-123');
  });

  it('When a webhook.disabled event was stored with its URL before, then the migration takes the URL out', async () => {
    const t = await buildTeam(ctx.db);
    const object = { id: crypto.randomUUID(), url: 'https://hooks.example.com/x?token=old-credential', events: ['*'] };
    await ctx.db.pool.query(
      `INSERT INTO events (id, business_id, type, data) VALUES ($1, $2, 'webhook.disabled', $3)`,
      [crypto.randomUUID(), t.business.id, { object: { ...object, description: null, active: false } }],
    );
    const migration = readMigrations().find((m) => m.version === '0021_webhook_disabled_without_url');
    await ctx.db.pool.query(migration!.sql);
    const { rows } = await ctx.db.pool.query<{ data: { object: Record<string, unknown> } }>(
      'SELECT data FROM events WHERE business_id = $1 AND type IS NOT NULL',
      [t.business.id],
    );
    expect(rows.map((row) => row.data.object)).toEqual([
      { id: object.id, events: ['*'], description: null, active: false },
    ]);
  });

  it('When the URL resolves to a private address, then the delivery says it was refused, without the address', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    expect(receiver.url).toContain('127.0.0.1');
    const res = await dev
      .request()
      .patch(`${hooks(t)}/${hook.id}`)
      .set(asOwner(t))
      .send({ url: receiver.url.replace('127.0.0.1', 'localhost') });
    expect(res.status, res.text).toBe(200);
    await createSuggestion(t);
    await workerFor(t, new Date(), false).worker.runDue();
    const [delivery] = await deliveries(t, hook.id);
    expect(delivery).toMatchObject({
      status: 'pending',
      last_error: 'no public address: the host is unknown or not a public one',
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('When every delivery has failed for 5 days, then the endpoint is disabled as failing', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = () => ({ status: 500 });
    const hook = await createHook(t, receiver);
    await createSuggestion(t);
    const { worker, at } = workerFor(t);
    await worker.runDue();
    at(DISABLE_AFTER_MS - 60_000);
    await createSuggestion(t, 'Four days later');
    await worker.runDue();
    expect(await readHook(t, hook.id)).toMatchObject({ active: true });
    at(DISABLE_AFTER_MS);
    await createSuggestion(t, 'Five days later');
    await worker.runDue();
    expect(await readHook(t, hook.id)).toMatchObject({ active: false, disabled_reason: 'failing' });
    // Turned on again by its owner, it starts afresh.
    const res = await dev
      .request()
      .patch(`${hooks(t)}/${hook.id}`)
      .set(asOwner(t))
      .send({ active: true });
    expect(res.body).toMatchObject({ active: true, disabled_reason: null });
  });

  it('When the receiver redirects, then the redirect is not followed and the attempt failed', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const elsewhere = await startReceiver();
    receiver.reply = () => ({ status: 307, headers: { Location: elsewhere.url } });
    const hook = await createHook(t, receiver);
    await createSuggestion(t);
    await workerFor(t).worker.runDue();
    expect(elsewhere.received).toHaveLength(0);
    expect((await deliveries(t, hook.id))[0]).toMatchObject({ status: 'pending', last_status_code: 307 });
  });

  it('When a test event is sent and a delivery redelivered, then the receiver gets both with their webhook-id', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver);
    const res = await dev
      .request()
      .post(`${hooks(t)}/${hook.id}/test`)
      .set(asOwner(t));
    expect(res.status, res.text).toBe(202);
    const { worker, at } = workerFor(t);
    await worker.runDue();
    const got = receiver.received[0]!;
    expect(got.headers['webhook-id']).toBe(res.body.event_id);
    expect(new Webhook(hook.secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' });
    const { rows } = await ctx.db.pool.query(
      'SELECT count(*) AS n FROM events WHERE business_id = $1 AND type IS NOT NULL',
      [t.business.id],
    );
    expect(rows[0]).toEqual({ n: 0 }); // never in the feed
    const [delivery] = await deliveries(t, hook.id);
    const again = await dev
      .request()
      .post(`${hooks(t)}/${hook.id}/deliveries/${delivery!.id as string}/redeliver`)
      .set(asOwner(t));
    expect(again.status, again.text).toBe(202);
    at(1000); // requeued as of the database's now, a moment after the worker's clock started
    await worker.runDue();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([res.body.event_id, res.body.event_id]);
    const unknown = await dev
      .request()
      .post(`${hooks(t)}/${hook.id}/deliveries/${hook.id}/redeliver`)
      .set(asOwner(t));
    expect(unknown.status).toBe(404);
  });
});

/** A receiver's answer: `status` to deliveries whose body mentions `marker`, 204 to the others. */
function failOn(marker: string, status: number) {
  return (request: Received): Reply => (request.body.includes(marker) ? { status } : { status: 204 });
}

async function disabledEvents(t: Team, count: number) {
  return feedEvents(() => dev.request(), t.read, count, { query: { type: 'webhook.disabled' } });
}

describe('Webhook delivery in batches', () => {
  it('When one batch holds a success and a failure for an endpoint, then its failing streak is cleared', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = failOn('Broken', 500);
    const hook = await createHook(t, receiver);
    await createSuggestion(t, 'Broken first');
    const { worker, at } = workerFor(t);
    await worker.runDue();
    at(DISABLE_AFTER_MS - 60_000);
    await createSuggestion(t, 'Fine');
    await createSuggestion(t, 'Broken again');
    expect(await worker.runDue()).toBe(3); // the first one's retry and both new ones, in one batch
    at(DISABLE_AFTER_MS);
    await createSuggestion(t, 'Broken once more');
    await worker.runDue();
    // Reached a minute ago, it has failed for a minute, not for five days.
    expect(await readHook(t, hook.id)).toMatchObject({ active: true });
  });

  it('When a batch fails for an endpoint failing for 5 days, then it is disabled once, with one webhook.disabled event', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = () => ({ status: 500 });
    const hook = await createHook(t, receiver);
    await createSuggestion(t, 'First');
    const { worker, at } = workerFor(t);
    await worker.runDue();
    at(DISABLE_AFTER_MS);
    await createSuggestion(t, 'Second');
    await createSuggestion(t, 'Third');
    expect(await worker.runDue()).toBe(3);
    expect(await readHook(t, hook.id)).toMatchObject({ active: false, disabled_reason: 'failing' });
    const recorded = (await deliveries(t, hook.id)).map((d) => [d.status, d.attempts, d.last_status_code]);
    expect(recorded.sort()).toEqual([
      ['pending', 1, 500],
      ['pending', 1, 500],
      ['pending', 2, 500],
    ]);
    const disabled = await disabledEvents(t, 1);
    expect(disabled).toHaveLength(1);
    expect(disabled[0]?.data.object).toMatchObject({ id: hook.id, active: false, disabled_reason: 'failing' });
  });

  it('When a batch holds a 410 and a success for an endpoint, then the 410 disables it at once', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    receiver.reply = failOn('Gone', 410);
    const hook = await createHook(t, receiver);
    await createSuggestion(t, 'Fine');
    await createSuggestion(t, 'Gone');
    expect(await workerFor(t).worker.runDue()).toBe(2);
    expect(await readHook(t, hook.id)).toMatchObject({ active: false, disabled_reason: 'gone' });
    const recorded = (await deliveries(t, hook.id)).map((d) => [d.status, d.last_status_code]);
    expect(recorded.sort()).toEqual([
      ['failed', 410],
      ['succeeded', 204],
    ]);
    const [disabled] = await disabledEvents(t, 1);
    expect(disabled?.data.object).toMatchObject({ id: hook.id, disabled_reason: 'gone' });
  });

  it('When one batch reaches several endpoints, then each gets its own outcome', async () => {
    const t = await buildTeam(ctx.db);
    const [down, flaky, leaving, healthy] = await Promise.all([1, 2, 3, 4].map(() => startReceiver()));
    down!.reply = () => ({ status: 500 });
    flaky!.reply = failOn('Broken', 500);
    // Suggestions only: the webhook.disabled events this test causes would otherwise add deliveries,
    // which the same run sends.
    const only = ['suggestion.created'];
    const hooks = {
      down: await createHook(t, down!, only),
      flaky: await createHook(t, flaky!, only),
      leaving: await createHook(t, leaving!, only),
      healthy: await createHook(t, healthy!, only),
    };
    await createSuggestion(t, 'Broken first');
    const { worker, at } = workerFor(t);
    await worker.runDue(); // down and flaky start failing
    at(DISABLE_AFTER_MS);
    leaving!.reply = () => ({ status: 410 });
    await createSuggestion(t, 'Fine');
    // down: two failures; flaky: a failure and a success; leaving: a 410; healthy: a success.
    expect(await worker.runDue()).toBe(6);
    expect(await readHook(t, hooks.down.id)).toMatchObject({ active: false, disabled_reason: 'failing' });
    expect(await readHook(t, hooks.flaky.id)).toMatchObject({ active: true });
    expect(await readHook(t, hooks.leaving.id)).toMatchObject({ active: false, disabled_reason: 'gone' });
    expect(await readHook(t, hooks.healthy.id)).toMatchObject({ active: true });
    const disabled = await disabledEvents(t, 2);
    const reasons = disabled.map((e) => e.data.object as { id: string; disabled_reason: string });
    expect(reasons.map((o) => [o.id, o.disabled_reason]).sort()).toEqual(
      [
        [hooks.down.id, 'failing'],
        [hooks.leaving.id, 'gone'],
      ].sort(),
    );
  });
});

describe('Webhook delivery is fair', () => {
  it('When another business has many endpoints that hang, then a healthy endpoint is delivered before they time out', async () => {
    const slow = await buildTeam(ctx.db);
    const healthy = await buildTeam(ctx.db);
    const hanging = await startReceiver();
    hanging.reply = () => 'hang';
    const fine = await startReceiver();
    // 10 endpoints × 6 events: 60 deliveries older than the healthy one, more than one claim takes.
    for (let i = 0; i < 10; i++) await createHook(slow, hanging, ['suggestion.created']);
    for (let i = 0; i < 6; i++) await createSuggestion(slow, `Slow ${i}`);
    const hook = await createHook(healthy, fine, ['suggestion.created']);
    await createSuggestion(healthy, 'Fine');

    const timeoutMs = 4_000;
    const worker = new WebhookWorker(ctx.db, capturingLogger().logger, {
      allowPrivateNetworks: true,
      businessIds: [slow.business.id, healthy.business.id],
      timeoutMs,
    });
    const started = Date.now();
    worker.start();
    try {
      await fine.nth(1);
      // Recorded too, while every send to the hanging receiver is still waiting for its timeout.
      for (let i = 0; i < 200 && (await deliveries(healthy, hook.id))[0]?.status !== 'succeeded'; i++) {
        await sleep(10);
      }
      const waited = Date.now() - started;
      expect(await deliveries(healthy, hook.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
      expect(waited).toBeLessThan(timeoutMs);
      // Each slow endpoint holds at most its own few places: 10 × PER_ENDPOINT of the 60 are in flight.
      expect(hanging.received.length).toBeLessThanOrEqual(10 * PER_ENDPOINT);
    } finally {
      await worker.stop();
    }
  });
});

describe('Webhook endpoints per business', () => {
  it('When a business has WEBHOOK_MAX_ENDPOINTS endpoints, then another is a 409 until one is deleted, even when created at once', async () => {
    const t = await buildTeam(ctx.db);
    const capped = otherApps({
      config: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true, WEBHOOK_MAX_ENDPOINTS: 3 },
      limit: 100_000,
      failedAuthLimit: 100_000,
    });
    const receiver = await startReceiver();
    const create = () =>
      capped
        .request()
        .post(hooks(t))
        .set(asOwner(t))
        .send({ url: receiver.url, events: ['*'] });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => create()));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = answers.find((res) => res.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'WEBHOOK_LIMIT_REACHED' });
    expect(refused.body.message).toMatch(/3 webhook endpoints.*WEBHOOK_MAX_ENDPOINTS/);
    const list = await capped.request().get(hooks(t)).set(asOwner(t));
    expect(list.body.total).toBe(3);

    const first = answers.find((res) => res.status === 201)!.body as { id: string };
    expect(
      (
        await capped
          .request()
          .delete(`${hooks(t)}/${first.id}`)
          .set(asOwner(t))
      ).status,
    ).toBe(204);
    expect((await create()).status).toBe(201);
  });

  it('When a business has 20 endpoints by default, then the 21st is refused', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    for (let i = 0; i < 20; i++) await createHook(t, receiver);
    const res = await dev
      .request()
      .post(hooks(t))
      .set(asOwner(t))
      .send({ url: receiver.url, events: ['*'] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'WEBHOOK_LIMIT_REACHED' });
  });
});

describe('Webhooks and Idempotency-Key', () => {
  it('When a keyed create is retried, then its event is recorded and delivered once', async () => {
    const t = await buildTeam(ctx.db);
    const receiver = await startReceiver();
    const hook = await createHook(t, receiver, ['suggestion.created']);
    const send = () =>
      dev
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', 'retry-me-1')
        .send({ content: 'Oat milk please' });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');

    await workerFor(t).worker.runDue();
    expect(receiver.received).toHaveLength(1);
    expect((JSON.parse(receiver.received[0]!.body) as { data: { object: { id: string } } }).data.object.id).toBe(
      first.body.id,
    );
    expect(await deliveries(t, hook.id)).toHaveLength(1);
  });
});
