import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildTeam, uniqueEmail } from '../support/factories.js';
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

const ORIGIN = 'http://localhost:3000';

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
