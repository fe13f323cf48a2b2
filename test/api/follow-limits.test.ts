import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, uniqueEmail } from '../support/factories.js';
import { postForReview } from '../support/public-page.js';
import { useSmtpApp, type MailApp, type ReceivedMail } from '../support/mail.js';

/**
 * What keeps the follow form from being a way to mail strangers (docs/notifications.md, SECURITY.md):
 * a confirmation quotes nothing a visitor wrote, a posted_token starts one follow once, and the caps
 * hold when many follows arrive at once. With a real SMTP peer on loopback.
 */
const ctx = useTestApp();
/** The page's clock runs ahead on demand: a form is posted after its minimum fill time without waiting. */
let pageClockAhead = 0;
const now = () => Date.now() + pageClockAhead;
const mail = useSmtpApp(ctx, { poll: true, pageWriteLimit: 100_000, publicPage: { now } });
/** A business's hourly follow confirmations capped at 3 (FOLLOW_CONFIRMATIONS_PER_HOUR). */
const HOURLY_CAP = 3;
const capped = useSmtpApp(ctx, {
  poll: true,
  pageWriteLimit: 100_000,
  publicPage: { now, followConfirmationsPerHour: HOURLY_CAP },
});
type Team = Awaited<ReturnType<typeof buildTeam>>;

const ORIGIN = 'http://localhost:3000';
/** Follows sent at once in the races below: enough to overrun any cap, few enough for a test's pool. */
const AT_ONCE = 12;
/** Gives the sender time to send anything more it would have sent. */
const settle = () => sleep(600);

async function business({ review = false } = {}) {
  const t = await buildTeam(ctx.db);
  const qr = await buildQrCode(ctx.db, t.business.id);
  if (review) {
    const res = await mail
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set({ Authorization: `Bearer ${t.ownerToken}` })
      .send({ approval_required: true });
    expect(res.status).toBe(200);
  }
  return { t, qr };
}

/** Feedback posted from the page's JSON side; answers its id and posted_token. */
async function postFeedback(code: string, content: string): Promise<{ id: string; postedToken: string }> {
  const list = await mail.request().get('/public/suggestions').query({ code });
  pageClockAhead += 5_000;
  const posted = await mail
    .request()
    .post('/public/suggestions')
    .set('Origin', ORIGIN)
    .send({ code, content, customer_name: 'Prize Desk', form_token: list.body.form_token });
  expect(posted.status, posted.text).toBe(201);
  return { id: posted.body.id as string, postedToken: posted.body.posted_token as string };
}

const followJson = (app: MailApp, id: string, body: object) =>
  app.request().post(`/public/suggestions/${id}/follow`).set('Origin', ORIGIN).send(body);

/** The messages the peer received for any of `addresses`. */
const sentTo = (app: MailApp, addresses: string[]) => addresses.flatMap((address) => app.peer.to(address));
/** Waits until `count` messages in all have reached `addresses` (the sender may be slow on a loaded machine). */
async function waitForSent(app: MailApp, addresses: string[], count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (sentTo(app, addresses).length < count) {
    if (Date.now() > deadline)
      throw new Error(`${sentTo(app, addresses).length} of ${count} messages within ${timeoutMs} ms`);
    await sleep(20);
  }
}

async function followRows(t: Team, filter: { suggestionId?: string; email?: string }): Promise<number> {
  const { rows } = await ctx.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM suggestion_follows
     WHERE business_id = $1 AND ($2::uuid IS NULL OR suggestion_id = $2) AND ($3::text IS NULL OR lower(email) = lower($3))`,
    [t.business.id, filter.suggestionId ?? null, filter.email ?? null],
  );
  return rows[0]!.n;
}

function linkIn(message: ReceivedMail, path: string): string {
  const match = new RegExp(`${ORIGIN}(${path}\\?token=[A-Za-z0-9._%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link in:\n${message.text}`);
  return match[1]!;
}

describe('Follow mail nobody can aim', () => {
  it('When a visitor follows feedback they wrote, awaiting review, then the confirmation quotes none of it: it names the business and links to the suggestion on the page', async () => {
    const { t, qr } = await business({ review: true });
    const words = 'Claim your prize at https://evil.example now';
    const { id, postedToken } = await postFeedback(qr.code, words);
    const email = uniqueEmail('stranger');
    expect((await followJson(mail, id, { code: qr.code, email, posted_token: postedToken })).status).toBe(202);

    const confirmation = await mail.peer.waitFor(email);
    expect(confirmation.subject).toBe(`Confirm: follow a suggestion to ${t.business.name}`);
    for (const part of [confirmation.subject, confirmation.text, confirmation.html]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('prize');
      expect(part).not.toContain('Prize Desk');
    }
    const onPage = `${ORIGIN}/f/${qr.code}#s-${id}`;
    expect(confirmation.text).toContain(`The suggestion on ${t.business.name}’s page:\n${onPage}`);
    expect(confirmation.html).toContain(`href="${onPage}"`);
    expect(confirmation.text).toContain(`${ORIGIN}/follow/confirm?token=`);
  });

  it('When a posted_token is sent again, then it is a 409 POSTED_TOKEN_USED, whatever the address, and nothing more is sent', async () => {
    const { qr } = await business({ review: true });
    const { id, postedToken } = await postFeedback(qr.code, 'A bike rack by the door');
    const [first, second] = [uniqueEmail('author'), uniqueEmail('victim')];
    expect((await followJson(mail, id, { code: qr.code, email: first, posted_token: postedToken })).status).toBe(202);
    for (const email of [second, first]) {
      const again = await followJson(mail, id, { code: qr.code, email, posted_token: postedToken });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('POSTED_TOKEN_USED');
    }
    await mail.peer.waitFor(first);
    await settle();
    expect(mail.peer.to(first)).toHaveLength(1);
    expect(mail.peer.to(second)).toHaveLength(0);
  });

  it("When the thank-you notice's follow form is sent again, then the page says it was already asked, and nothing more is sent", async () => {
    const { qr } = await business({ review: true });
    const browser = supertest.agent(mail.app);
    const { id, proof } = await postForReview(browser, qr.code, 'Quieter music at lunch', () => {
      pageClockAhead += 5_000;
    });
    const follow = (email: string) =>
      browser.post(`/f/${qr.code}/follow/${id}`).set('Origin', ORIGIN).type('form').send({ email, posted: proof });
    const [first, second] = [uniqueEmail('author'), uniqueEmail('victim')];
    expect((await follow(first)).status).toBe(303);
    const again = await follow(second);
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.text).toContain('You have already asked to follow your suggestion from this notice.');
    await mail.peer.waitFor(first);
    await settle();
    expect(mail.peer.to(second)).toHaveLength(0);
  });

  it('When one posted_token is sent with many addresses at once, then exactly one follow starts and the rest are 409s', async () => {
    const { t, qr } = await business({ review: true });
    const { id, postedToken } = await postFeedback(qr.code, 'Longer opening hours');
    const addresses = Array.from({ length: AT_ONCE }, (_, i) => uniqueEmail(`race${i}`));
    const answers = await Promise.all(
      addresses.map((email) => followJson(mail, id, { code: qr.code, email, posted_token: postedToken })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([202, ...Array<number>(AT_ONCE - 1).fill(409)]);
    await waitForSent(mail, addresses, 1);
    await settle();
    expect(sentTo(mail, addresses)).toHaveLength(1);
    expect(await followRows(t, { suggestionId: id })).toBe(1);
  });

  it('When many follows of one address arrive at once, then it gets exactly three confirmations', async () => {
    const { t, qr } = await business();
    const suggestions = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: `Idea ${i}` }),
      ),
    );
    const email = uniqueEmail('victim');
    const answers = await Promise.all(suggestions.map((s) => followJson(mail, s.id, { code: qr.code, email })));
    expect(answers.map((res) => res.status)).toEqual(Array<number>(AT_ONCE).fill(202));
    await mail.peer.waitFor(email, { count: 3 });
    await settle();
    expect(mail.peer.to(email)).toHaveLength(3);
    expect(await followRows(t, { email })).toBe(3);
  });

  it("When many follows across addresses arrive at once past the business's hourly cap, then exactly the cap is sent and the rest are 429s", async () => {
    const { t, qr } = await business();
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Oat milk, please' });
    const addresses = Array.from({ length: AT_ONCE }, (_, i) => uniqueEmail(`crowd${i}`));
    const answers = await Promise.all(addresses.map((email) => followJson(capped, s.id, { code: qr.code, email })));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([
      ...Array<number>(HOURLY_CAP).fill(202),
      ...Array<number>(AT_ONCE - HOURLY_CAP).fill(429),
    ]);
    await waitForSent(capped, addresses, HOURLY_CAP);
    await settle();
    expect(sentTo(capped, addresses)).toHaveLength(HOURLY_CAP);
    expect(await followRows(t, { suggestionId: s.id })).toBe(HOURLY_CAP);
  });

  it("When a follower's links and an author's thank-you page are opened, then the request log carries none of their tokens", async () => {
    const { qr } = await business({ review: true });
    const { id, postedToken } = await postFeedback(qr.code, 'Warmer lights');
    const email = uniqueEmail('follower');
    expect((await followJson(mail, id, { code: qr.code, email, posted_token: postedToken })).status).toBe(202);
    const confirmation = await mail.peer.waitFor(email);
    const confirm = linkIn(confirmation, '/follow/confirm');
    const unsubscribe = linkIn(confirmation, '/follow/unsubscribe');
    const page = supertest(mail.app);
    expect((await page.get(`/f/${qr.code}?thanks=review&s=${id}&posted=${postedToken}`)).status).toBe(200);
    expect((await page.get(confirm)).status).toBe(200);
    expect((await page.post(confirm)).status).toBe(200);
    expect((await page.get(unsubscribe)).status).toBe(200);
    // the name written another way is the same parameter to the server, and redacted as well
    expect((await page.post(unsubscribe.replace('?token=', '?%74oken='))).status).toBe(200);

    const log = mail.logs.join('');
    const secrets = [postedToken, ...[confirm, unsubscribe].map((link) => link.split('.').at(-1)!)];
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).toContain(`"url":"/follow/confirm?token=[redacted]"`);
    expect(log).toContain(`"url":"/follow/unsubscribe?%74oken=[redacted]"`);
    expect(log).toContain(`"url":"/f/${qr.code}?thanks=review&s=${id}&posted=[redacted]"`);
  });
});
