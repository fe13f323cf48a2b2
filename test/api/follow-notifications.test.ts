import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { FollowNotifier } from '../../src/follows/follow.notifier.js';
import { confirmFollow, insertFollow } from '../../src/follows/follow.repository.js';
import { newLinkKey } from '../../src/follows/follow.tokens.js';
import { newId } from '../../src/shared/ids.js';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, uniqueEmail } from '../support/factories.js';
import { postForReview } from '../support/public-page.js';
import { useSmtpApp, type ReceivedMail } from '../support/mail.js';

/** What followers hear, with a real SMTP peer on loopback (docs/notifications.md). */
const ctx = useTestApp({ ownDatabase: true });
/** The page's clock runs ahead on demand: a form is posted after its minimum fill time without waiting. */
let pageClockAhead = 0;
const mail = useSmtpApp(ctx, { poll: true, publicPage: { now: () => Date.now() + pageClockAhead } });
type Team = Awaited<ReturnType<typeof buildTeam>>;

const ORIGIN = 'http://localhost:3000';
const page = () => supertest(mail.app);
const notifier = (perBusinessPerHour = 1000) =>
  new FollowNotifier(ctx.db.pool, mail.sender, createLogger('silent'), {
    baseUrl: ORIGIN,
    perBusinessPerHour,
    pollIntervalMs: 60_000,
  });
/** Past the 5-minute grouping window of every notice written so far. */
const afterWindow = () => new Date(Date.now() + 6 * 60_000);
const settle = () => sleep(400);

function linkIn(message: ReceivedMail, path: string): string {
  const match = new RegExp(`${ORIGIN}(${path}\\?token=[A-Za-z0-9._%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link in:\n${message.text}`);
  return match[1]!;
}

async function scene() {
  const t = await buildTeam(ctx.db);
  const qr = await buildQrCode(ctx.db, t.business.id);
  const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Oat milk, please' });
  return { t, qr, s };
}

/** An address that follows from the page; confirmed unless told otherwise. Answers its confirmation. */
async function follower(code: string, suggestionId: string, { confirm = true } = {}) {
  const email = uniqueEmail('follower');
  const res = await page().post(`/f/${code}/follow/${suggestionId}`).set('Origin', ORIGIN).type('form').send({ email });
  expect(res.status).toBe(303);
  const confirmation = await mail.peer.waitFor(email);
  if (confirm) expect((await page().post(linkIn(confirmation, '/follow/confirm'))).status).toBe(200);
  return { email, confirmation };
}

const owner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });
const patch = (t: Team, id: string, body: object) =>
  mail.request().patch(`/api/v1/suggestions/${id}`).set('X-API-Key', t.write).send(body);

describe('What followers hear', () => {
  it('When the status moves twice within the window, then each confirmed follower gets one email and an unconfirmed one none', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const b = await follower(qr.code, s.id);
    const c = await follower(qr.code, s.id, { confirm: false });
    expect((await patch(t, s.id, { status: 'reviewing' })).status).toBe(200);
    expect((await patch(t, s.id, { status: 'in_progress' })).status).toBe(200);
    const run = notifier();
    // within the window nothing is due
    expect(await run.runDue()).toBe(0);
    expect(await run.runDue(afterWindow())).toBe(2);
    for (const { email } of [a, b]) {
      const notification = await mail.peer.waitFor(email, { count: 2 });
      expect(notification.subject).toBe(`In progress: your suggestion to ${t.business.name}`);
      expect(notification.text).toContain('Status: Received → In progress');
      expect(notification.text).toContain(`${ORIGIN}/f/${qr.code}#s-${s.id}`);
      expect(notification.headers['list-unsubscribe']).toMatch(
        /^<http:\/\/localhost:3000\/follow\/unsubscribe\?token=/,
      );
      expect(notification.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }
    expect(await run.runDue(afterWindow())).toBe(0);
    await settle();
    expect(mail.peer.to(a.email)).toHaveLength(2);
    expect(mail.peer.to(b.email)).toHaveLength(2);
    expect(mail.peer.to(c.email)).toHaveLength(1);
  });

  it('When a follower unsubscribes with the one-click POST, then nothing more is sent to them', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const b = await follower(qr.code, s.id);
    const header = a.confirmation.headers['list-unsubscribe']!;
    const oneClick = await page()
      .post(header.slice(`<${ORIGIN}`.length, -1))
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(200);
    await patch(t, s.id, { status: 'completed' });
    expect(await notifier().runDue(afterWindow())).toBe(1);
    await mail.peer.waitFor(b.email, { count: 2 });
    await settle();
    expect(mail.peer.to(a.email)).toHaveLength(1);
  });

  it('When a public suggestion is rejected with a reply, then its followers are told, with the reply and no page link', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const reply = await mail
      .request()
      .put(`/api/v1/suggestions/${s.id}/reply`)
      .set('X-API-Key', t.write)
      .send({ content: 'Our supplier stopped making it, sorry.' });
    expect(reply.status).toBe(200);
    await patch(t, s.id, { status: 'rejected' });
    expect(await notifier().runDue(afterWindow())).toBe(1);
    const notification = await mail.peer.waitFor(a.email, { count: 2 });
    expect(notification.text).toContain('Status: Received → Not planned');
    expect(notification.text).toContain(`${t.business.name} answered: “Our supplier stopped making it, sorry.”`);
    expect(notification.text).not.toContain(`/f/${qr.code}`);
  });

  it('When only the reply is set, then followers get it; removing it sends nothing', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const path = `/api/v1/suggestions/${s.id}/reply`;
    await mail.request().put(path).set('X-API-Key', t.write).send({ content: 'Coming Monday' });
    expect(await notifier().runDue(afterWindow())).toBe(1);
    const notification = await mail.peer.waitFor(a.email, { count: 2 });
    expect(notification.subject).toBe(`${t.business.name} answered a suggestion you follow`);
    await mail.request().delete(path).set('X-API-Key', t.write);
    expect(await notifier().runDue(afterWindow())).toBe(0);
  });

  it('When a suggestion is internal or refused in review, then its changes notify nobody', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    await mail
      .request()
      .patch(`/businesses/${t.business.id}/suggestions/${s.id}`)
      .set('X-API-Key', t.write)
      .send({ visibility: 'internal' });
    await patch(t, s.id, { status: 'in_progress' });

    // a suggestion refused in review is never on the page; a follow written by the service's own statements
    const refused = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', reviewState: 'rejected' });
    const email = uniqueEmail('follower');
    const follow = await insertFollow(ctx.db.pool, t.business.id, {
      id: newId(),
      suggestionId: refused.id,
      qrCodeId: qr.id,
      email,
      linkKey: newLinkKey(),
    });
    await confirmFollow(ctx.db.pool, t.business.id, follow!.id);
    await patch(t, refused.id, { status: 'completed' });

    expect(await notifier().runDue(afterWindow())).toBe(0);
    await settle();
    expect(mail.peer.to(a.email)).toHaveLength(1);
    expect(mail.peer.to(email)).toHaveLength(0);
  });

  it('When an API-created suggestion carries a customer_email, then that address is never mailed, whatever happens to it', async () => {
    const { t, qr } = await scene();
    const customer = uniqueEmail('customer');
    const created = await mail
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'More vegan options', customer_email: customer, visibility: 'public' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const a = await follower(qr.code, id);
    await mail.request().put(`/api/v1/suggestions/${id}/reply`).set('X-API-Key', t.write).send({ content: 'Yes!' });
    for (const status of ['reviewing', 'in_progress', 'completed', 'rejected']) await patch(t, id, { status });
    expect(await notifier().runDue(afterWindow())).toBe(1);
    await mail.peer.waitFor(a.email, { count: 2 });
    await settle();
    expect(mail.peer.to(customer)).toHaveLength(0);
    const { rows } = await ctx.db.pool.query('SELECT 1 FROM mail_outbox WHERE lower(recipient) = lower($1)', [
      customer,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('When the business turns notifications off, then followers hear nothing', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const off = await mail
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ notify_followers: false });
    expect(off.status).toBe(200);
    expect(off.body.notify_followers).toBe(false);
    await patch(t, s.id, { status: 'completed' });
    expect(await notifier().runDue(afterWindow())).toBe(0);
    await settle();
    expect(mail.peer.to(a.email)).toHaveLength(1);
  });

  it('When the hourly cap is reached, then the rest wait, and no follower is mailed twice', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    const b = await follower(qr.code, s.id);
    await patch(t, s.id, { status: 'completed' });
    const capped = notifier(1);
    expect(await capped.runDue(afterWindow())).toBe(1);
    expect(await capped.runDue(new Date(Date.now() + 12 * 60_000))).toBe(0);
    // a higher cap (another hour) sends the notice to the follower left, and only to them
    expect(await notifier().runDue(new Date(Date.now() + 12 * 60_000))).toBe(1);
    await settle();
    expect(mail.peer.to(a.email).length + mail.peer.to(b.email).length).toBe(4);
  });

  it('When a business reviews feedback, then its author may follow it from the thank-you page, and hears once it is approved and moves', async () => {
    const { t, qr } = await scene();
    await mail.request().patch(`/businesses/${t.business.id}`).set(owner(t)).send({ approval_required: true });
    const browser = supertest.agent(mail.app);
    const { location, id, proof } = await postForReview(browser, qr.code, 'A bike rack by the door', () => {
      pageClockAhead += 5_000;
    });
    const thanks = await browser.get(location);
    expect(thanks.text).toContain('It will appear here after review.');
    expect(thanks.text).toContain(`action="/f/${qr.code}/follow/${id}"`);
    expect(thanks.text).toContain(`name="posted" value="${proof}"`);

    // without the proof, or with another suggestion's, feedback awaiting review cannot be followed
    const stranger = uniqueEmail('stranger');
    const other = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', reviewState: 'pending' });
    for (const [target, posted] of [
      [id, undefined],
      [id, 'A'.repeat(43)],
      [other.id, proof],
    ] as const) {
      const refused = await page()
        .post(`/f/${qr.code}/follow/${target}`)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ email: stranger, ...(posted ? { posted } : {}) });
      expect(refused.status).toBe(404);
    }
    // nor does a forged thank-you address offer the form
    const forged = await page().get(`/f/${qr.code}?thanks=review&s=${other.id}&posted=${proof}`);
    expect(forged.text).not.toContain('name="posted"');

    const email = uniqueEmail('author');
    const follow = await browser
      .post(`/f/${qr.code}/follow/${id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ email, posted: proof });
    expect(follow.status).toBe(303);
    const confirmation = await mail.peer.waitFor(email);
    expect(confirmation.text).not.toContain('A bike rack by the door');
    expect((await page().post(linkIn(confirmation, '/follow/confirm'))).status).toBe(200);

    // awaiting review, nothing is told; approved and moved, the author hears
    await patch(t, id, { status: 'reviewing' });
    expect(await notifier().runDue(afterWindow())).toBe(0);
    const approved = await mail
      .request()
      .patch(`/businesses/${t.business.id}/suggestions/${id}`)
      .set(owner(t))
      .send({ review: 'approve' });
    expect(approved.status, approved.text).toBe(200);
    expect((await patch(t, id, { status: 'in_progress' })).status).toBe(200);
    expect(await notifier().runDue(afterWindow())).toBe(1);
    const notification = await mail.peer.waitFor(email, { count: 2 });
    expect(notification.subject).toBe(`In progress: your suggestion to ${t.business.name}`);
    await settle();
    expect(mail.peer.to(email)).toHaveLength(2);
    expect(mail.peer.to(stranger)).toHaveLength(0);
  });

  it('When feedback awaiting review is posted as JSON, then its posted_token lets the author follow it, and nothing else does', async () => {
    const { t, qr } = await scene();
    await mail.request().patch(`/businesses/${t.business.id}`).set(owner(t)).send({ approval_required: true });
    const list = await page().get('/public/suggestions').query({ code: qr.code });
    pageClockAhead += 5_000;
    const posted = await page()
      .post('/public/suggestions')
      .set('Origin', ORIGIN)
      .send({ code: qr.code, content: 'Quieter music at lunch', form_token: list.body.form_token });
    expect(posted.status, posted.text).toBe(201);
    expect(posted.body.awaiting_review).toBe(true);
    expect(posted.body.posted_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const follow = (body: object) =>
      page().post(`/public/suggestions/${posted.body.id}/follow`).set('Origin', ORIGIN).send(body);
    const email = uniqueEmail('author');
    expect((await follow({ code: qr.code, email })).status).toBe(404);
    expect((await follow({ code: qr.code, email, posted_token: 'B'.repeat(43) })).status).toBe(404);
    expect((await follow({ code: qr.code, email, posted_token: 'not a token' })).status).toBe(400);
    expect((await follow({ code: qr.code, email, posted_token: posted.body.posted_token })).status).toBe(202);
    await mail.peer.waitFor(email);
    await settle();
    expect(mail.peer.to(email)).toHaveLength(1);
  });
  it('When a status move is still being committed as its notice comes due, then the notice waits for it, and the follower hears the move', async () => {
    const { t, qr, s } = await scene();
    const a = await follower(qr.code, s.id);
    expect((await patch(t, s.id, { status: 'reviewing' })).status).toBe(200);
    // A second move joins the waiting notice, and its transaction has not committed when the notifier runs.
    const move = await ctx.db.pool.connect();
    let run: Promise<number> | undefined;
    try {
      await move.query('BEGIN');
      await move.query(`UPDATE suggestions SET status = 'in_progress' WHERE business_id = $1 AND id = $2`, [
        t.business.id,
        s.id,
      ]);
      run = notifier().runDue(afterWindow());
      // PostgreSQL runs the notifier meanwhile; the embedded database, one connection, only after the commit.
      await Promise.race([run, sleep(500)]);
      await move.query('COMMIT');
    } finally {
      move.release();
    }
    await run;
    await notifier().runDue(afterWindow());
    const told = await mail.peer.waitFor(a.email, { count: 2 });
    await settle();
    expect(mail.peer.to(a.email)).toHaveLength(2);
    expect(told.text).toContain('Status: Received → In progress');
  });
});
