import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { FollowNotifier } from '../../src/follows/follow.notifier.js';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, uniqueEmail } from '../support/factories.js';
import { useSmtpApp, type ReceivedMail } from '../support/mail.js';

/** What followers hear of a published changelog entry, with a real SMTP peer on loopback (docs/changelog.md). */
const ctx = useTestApp({ ownDatabase: true });
const mail = useSmtpApp(ctx, { poll: true });
type Team = Awaited<ReturnType<typeof buildTeam>>;

const ORIGIN = 'http://localhost:3000';
const page = () => supertest(mail.app);
const notifier = (perBusinessPerHour = 1000) =>
  new FollowNotifier(ctx.db.pool, mail.sender, createLogger('silent'), {
    baseUrl: ORIGIN,
    perBusinessPerHour,
    pollIntervalMs: 60_000,
  });
const afterWindow = () => new Date(Date.now() + 6 * 60_000);
const settle = () => sleep(400);
const owner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

function linkIn(message: ReceivedMail, path: string): string {
  const match = new RegExp(`${ORIGIN}(${path}\\?token=[A-Za-z0-9._%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link in:\n${message.text}`);
  return match[1]!;
}

/** `email` follows each suggestion from the page and confirms each follow. */
async function follows(email: string, code: string, ids: string[]) {
  for (const [n, id] of ids.entries()) {
    const res = await page().post(`/f/${code}/follow/${id}`).set('Origin', ORIGIN).type('form').send({ email });
    expect(res.status).toBe(303);
    const confirmation = await mail.peer.waitFor(email, { count: n + 1 });
    expect((await page().post(linkIn(confirmation, '/follow/confirm'))).status).toBe(200);
  }
}

async function publishEntry(t: Team, body: object, publish: object = {}) {
  const created = await mail.request().post(`/businesses/${t.business.id}/changelog`).set(owner(t)).send(body);
  expect(created.status, created.text).toBe(201);
  const res = await mail
    .request()
    .post(`/businesses/${t.business.id}/changelog/${created.body.id}/publish`)
    .set(owner(t))
    .send(publish);
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string };
}

describe('What followers hear of the changelog', () => {
  it('When an entry names two suggestions an address follows and completes them, then it gets one email carrying both, and no status email after', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const a = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Oat milk, please' });
    const b = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Soy milk too' });
    const email = uniqueEmail('follower');
    await follows(email, qr.code, [a.id, b.id]);
    const other = uniqueEmail('other');
    await follows(other, qr.code, [b.id]);
    const entry = await publishEntry(
      t,
      { title: 'Plant milks are here', body: 'Every **plant milk** <script>x</script>', suggestion_ids: [a.id, b.id] },
      { complete_suggestions: true },
    );
    const run = notifier();
    expect(await run.runDue()).toBe(2);
    const message = await mail.peer.waitFor(email, { count: 3 });
    expect(message.subject).toBe(`${t.business.name}: Plant milks are here`);
    expect(message.text).toContain('about 2 suggestions you follow');
    expect(message.text).toContain('“Oat milk, please”');
    expect(message.text).toContain('“Soy milk too”');
    expect(message.text).toContain('Status: Received → Done');
    expect(message.text).toContain(`${ORIGIN}/f/${qr.code}/changelog/${entry.id}`);
    expect(message.html).not.toContain('<script>');
    expect(message.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/follow\/unsubscribe\?token=/);
    expect(message.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // the status notices the completion left were carried: past their window, nobody is mailed again
    expect(await run.runDue(afterWindow())).toBe(0);
    await settle();
    expect(mail.peer.to(email)).toHaveLength(3);
    expect(mail.peer.to(other)).toHaveLength(2);
  });

  it('When an entry is published with notify_followers false, then nothing is sent, not even the completion', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const email = uniqueEmail('follower');
    await follows(email, qr.code, [s.id]);
    await publishEntry(
      t,
      { title: 'Quietly done', suggestion_ids: [s.id] },
      { complete_suggestions: true, notify_followers: false },
    );
    expect(await notifier().runDue(afterWindow())).toBe(0);
    await settle();
    expect(mail.peer.to(email)).toHaveLength(1);
  });

  it('When the hourly cap is spent, then the entry waits, and no address gets it twice', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public' });
    const emails = [uniqueEmail('f1'), uniqueEmail('f2'), uniqueEmail('f3')];
    for (const email of emails) await follows(email, qr.code, [s.id]);
    await publishEntry(t, { title: 'Capped', suggestion_ids: [s.id] });
    expect(await notifier(2).runDue()).toBe(2);
    expect(await notifier(2).runDue(afterWindow())).toBe(0);
    expect(await notifier(10).runDue(afterWindow())).toBe(1);
    expect(await notifier(10).runDue(new Date(Date.now() + 20 * 60_000))).toBe(0);
    await settle();
    for (const email of emails) expect(mail.peer.to(email)).toHaveLength(2);
  });
});
