import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, uniqueEmail } from '../support/factories.js';
import { useSmtpApp, type ReceivedMail } from '../support/mail.js';

/** Following a suggestion from the public page, with a real SMTP peer on loopback (docs/notifications.md). */
const ctx = useTestApp();
const mail = useSmtpApp(ctx, { poll: true });
/** The same app with a business's hourly follow confirmations capped at 2 (FOLLOW_CONFIRMATIONS_PER_HOUR). */
const capped = useSmtpApp(ctx, { poll: true, publicPage: { followConfirmationsPerHour: 2 } });
type Team = Awaited<ReturnType<typeof buildTeam>>;

/** The app's PUBLIC_BASE_URL (its default): the page's writes must come from it. */
const ORIGIN = 'http://localhost:3000';
const page = () => supertest(mail.app);
const owner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

async function scene() {
  const t = await buildTeam(ctx.db);
  const qr = await buildQrCode(ctx.db, t.business.id);
  const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Oat milk, please' });
  return { t, qr, s };
}

async function followFromPage(code: string, suggestionId: string, email: string) {
  const res = await page()
    .post(`/f/${code}/follow/${suggestionId}`)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ email, sort: 'top' });
  expect(res.status, res.text).toBe(303);
  expect(res.headers.location).toBe(`/f/${code}?followed=1&sort=top#s-${suggestionId}`);
}

/** The path and query of the link in a message that starts with `path`. */
function linkIn(message: ReceivedMail, path: string): string {
  const match = new RegExp(`${ORIGIN}(${path}\\?token=[A-Za-z0-9._%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link in:\n${message.text}`);
  return match[1]!;
}

async function followerCount(t: Team, id: string): Promise<number> {
  const res = await mail.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', t.read);
  expect(res.status).toBe(200);
  return res.body.follower_count as number;
}

/** Gives the sender time to send anything more it would have sent. */
const settle = () => sleep(400);

describe('Following a suggestion by email', () => {
  it('When a customer follows from the page, then exactly one confirmation goes out, with one-click unsubscribe headers', async () => {
    const { t, qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirmation = await mail.peer.waitFor(email);
    expect(confirmation.subject).toBe(`Confirm: follow a suggestion to ${t.business.name}`);
    // it quotes nothing a visitor wrote: it names the business and links to the suggestion on the page
    expect(confirmation.text).not.toContain('Oat milk');
    expect(confirmation.text).toContain(`${ORIGIN}/f/${qr.code}#s-${s.id}`);
    const unsubscribe = linkIn(confirmation, '/follow/unsubscribe');
    expect(confirmation.headers['list-unsubscribe']).toBe(`<${ORIGIN}${unsubscribe}>`);
    expect(confirmation.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(confirmation.html).toContain(`href="${ORIGIN}${unsubscribe}"`);

    // asking again (a double click, or someone else typing the address) sends nothing more
    await followFromPage(qr.code, s.id, email.toUpperCase());
    await settle();
    expect(mail.peer.to(email)).toHaveLength(1);
    expect(await followerCount(t, s.id)).toBe(0);
    const followers = await mail
      .request()
      .get(`/businesses/${t.business.id}/suggestions/${s.id}/followers`)
      .set(owner(t));
    expect(followers.body).toEqual({ data: [], total: 0 });
    // the message's bodies and headers are erased once sent
    const { rows } = await ctx.db.pool.query(
      `SELECT text_body, html_body, headers FROM mail_outbox WHERE recipient = $1 AND status = 'sent'`,
      [email],
    );
    expect(rows).toEqual([{ text_body: null, html_body: null, headers: null }]);
  });

  it('When the address confirms, then it is counted and listed to owners, and a one-click POST unsubscribes it', async () => {
    const { t, qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirmation = await mail.peer.waitFor(email);
    const confirm = linkIn(confirmation, '/follow/confirm');

    // opening the link (as a mail scanner does) confirms nothing: the page's button does
    const opened = await page().get(confirm);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Confirm and follow');
    expect(await followerCount(t, s.id)).toBe(0);
    const confirmed = await page().post(confirm);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.text).toContain('You are following this suggestion');
    expect((await page().post(confirm)).status).toBe(200);
    expect(await followerCount(t, s.id)).toBe(1);
    const listed = await mail.request().get(`/businesses/${t.business.id}/suggestions/${s.id}/followers`).set(owner(t));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ email, confirmed_at: expect.any(String) }]);
    expect(listed.body.total).toBe(1);

    const header = confirmation.headers['list-unsubscribe']!;
    const oneClick = header.slice(`<${ORIGIN}`.length, -1);
    const res = await page().post(oneClick).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
    expect(await followerCount(t, s.id)).toBe(0);
    const after = await mail.request().get(`/businesses/${t.business.id}/suggestions/${s.id}/followers`).set(owner(t));
    expect(after.body.total).toBe(0);
    // the address is forgotten: its row is gone
    const { rows } = await ctx.db.pool.query('SELECT 1 FROM suggestion_follows WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('When the unsubscribe page is used for the whole business, then every follow of the address there is forgotten', async () => {
    const { t, qr, s } = await scene();
    const other = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Open earlier' });
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    await followFromPage(qr.code, other.id, email);
    await mail.peer.waitFor(email, { count: 2 });
    for (const message of mail.peer.to(email)) await page().post(linkIn(message, '/follow/confirm'));
    expect(await followerCount(t, s.id)).toBe(1);
    expect(await followerCount(t, other.id)).toBe(1);

    const unsubscribe = linkIn(mail.peer.to(email)[0]!, '/follow/unsubscribe');
    const shown = await page().get(unsubscribe);
    expect(shown.text).toContain(`Stop all emails from ${t.business.name}`);
    expect((await page().post(`${unsubscribe}&all=1`)).status).toBe(200);
    expect(await followerCount(t, s.id)).toBe(0);
    expect(await followerCount(t, other.id)).toBe(0);
  });

  it('When an address never confirms, then after 7 days its link is refused and the address is forgotten', async () => {
    const { t, qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirm = linkIn(await mail.peer.waitFor(email), '/follow/confirm');
    await ctx.db.pool.query(
      `UPDATE suggestion_follows SET created_at = now() - interval '7 days 1 minute' WHERE lower(email) = lower($1)`,
      [email],
    );
    const res = await page().post(confirm);
    expect(res.status).toBe(410);
    expect(await followerCount(t, s.id)).toBe(0);
    const { rows } = await ctx.db.pool.query('SELECT 1 FROM suggestion_follows WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('When a confirmation link is opened, then its page names the business and the suggestion, escaped, and so does the confirmed page', async () => {
    const { t, qr } = await scene();
    await ctx.db.pool.query('UPDATE businesses SET name = $2 WHERE id = $1', [t.business.id, 'Café <Ana> & "Sons"']);
    const s = await buildSuggestion(ctx.db, t.business.id, {
      visibility: 'public',
      content: 'Oat milk <script>alert(1)</script> & "soon"',
    });
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirm = linkIn(await mail.peer.waitFor(email), '/follow/confirm');
    const business = 'Café &lt;Ana&gt; &amp; &quot;Sons&quot;';
    const content = 'Oat milk &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;soon&quot;';

    const opened = await page().get(confirm);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(`<h1>Follow a suggestion to ${business}</h1>`);
    expect(opened.text).toContain(`<blockquote class="content">${content}</blockquote>`);
    expect(opened.text).not.toContain('<script>alert');
    expect(opened.text).toMatch(/<button type="submit" class="button">Confirm and follow<\/button>/);

    const confirmed = await page().post(confirm);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain(`${business} will email you when it moves.`);
    expect(confirmed.text).toContain(`<blockquote class="content">${content}</blockquote>`);
  });

  it('When the suggestion a link names is no longer on the page, then its confirm page names the business but quotes nothing', async () => {
    const { t, qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirm = linkIn(await mail.peer.waitFor(email), '/follow/confirm');
    await ctx.db.pool.query(`UPDATE suggestions SET review_state = 'pending' WHERE business_id = $1 AND id = $2`, [
      t.business.id,
      s.id,
    ]);
    const opened = await page().get(confirm);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(`Follow a suggestion to ${t.business.name}`);
    expect(opened.text).toContain(`${t.business.name}’s page does not show this suggestion right now`);
    expect(opened.text).not.toContain('Oat milk');
  });

  it('When a link is expired or not valid, then its page says so in its own words, not the feedback page’s', async () => {
    const { qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirm = linkIn(await mail.peer.waitFor(email), '/follow/confirm');
    await ctx.db.pool.query(
      `UPDATE suggestion_follows SET created_at = now() - interval '7 days 1 minute' WHERE lower(email) = lower($1)`,
      [email],
    );
    // opening it changes nothing (a mail scanner may open it); the button's post forgets the address
    const opened = await page().get(confirm);
    expect(opened.status).toBe(410);
    expect(opened.text).toContain('This link has expired');
    expect(opened.text).not.toContain('This code is no longer active');
    const { rows } = await ctx.db.pool.query('SELECT 1 FROM suggestion_follows WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toHaveLength(1);
    const invalid = await page().get('/follow/confirm?token=nonsense');
    expect(invalid.status).toBe(404);
    expect(invalid.text).toContain('This link is not valid');
    expect(invalid.text).not.toContain('There is no feedback page here');
  });

  it('When another expired follow exists, then the next follow on any page deletes it', async () => {
    const { qr, s } = await scene();
    const stale = uniqueEmail('stale');
    await followFromPage(qr.code, s.id, stale);
    await mail.peer.waitFor(stale);
    await ctx.db.pool.query(
      `UPDATE suggestion_follows SET created_at = now() - interval '8 days' WHERE lower(email) = lower($1)`,
      [stale],
    );
    const next = await scene();
    await followFromPage(next.qr.code, next.s.id, uniqueEmail('next'));
    const { rows } = await ctx.db.pool.query('SELECT 1 FROM suggestion_follows WHERE lower(email) = lower($1)', [
      stale,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('When a link is forged, tampered with or malformed, then it is a 404 and nothing changes', async () => {
    const { t, qr, s } = await scene();
    const email = uniqueEmail('follower');
    await followFromPage(qr.code, s.id, email);
    const confirm = linkIn(await mail.peer.waitFor(email), '/follow/confirm');
    const unsubscribe = linkIn(mail.peer.to(email)[0]!, '/follow/unsubscribe');
    const tampered = `${confirm.slice(0, -2)}${confirm.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await page().post(tampered)).status).toBe(404);
    // an unsubscribe link does not confirm, and the reverse
    expect((await page().post(unsubscribe.replace('/follow/unsubscribe', '/follow/confirm'))).status).toBe(404);
    expect((await page().post('/follow/confirm?token=nonsense')).status).toBe(404);
    expect((await page().post('/follow/confirm')).status).toBe(404);
    expect(await followerCount(t, s.id)).toBe(0);
  });

  it('When the JSON side follows, then it is a 202 and one confirmation; a suggestion the page does not show is a 404', async () => {
    const { t, qr, s } = await scene();
    const internal = await buildSuggestion(ctx.db, t.business.id, { visibility: 'internal' });
    const email = uniqueEmail('json');
    const follow = (id: string, body: object) =>
      mail.request().post(`/public/suggestions/${id}/follow`).set('Origin', ORIGIN).send(body);
    expect((await follow(s.id, { code: qr.code, email })).status).toBe(202);
    await mail.peer.waitFor(email);
    expect((await follow(internal.id, { code: qr.code, email })).status).toBe(404);
    expect((await follow(s.id, { code: qr.code, email: 'not an address' })).status).toBe(400);
    const form = await page()
      .post(`/f/${qr.code}/follow/${s.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ email: 'nope' });
    expect(form.status).toBe(400);
    expect(form.text).toContain('That email address does not look right');
    await settle();
    expect(mail.peer.to(email)).toHaveLength(1);
  });

  it('When one address is typed under many suggestions, then it waits on three confirmations at most', async () => {
    const { t, qr } = await scene();
    const email = uniqueEmail('victim');
    for (let i = 0; i < 5; i++) {
      const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: `Idea ${i}` });
      await followFromPage(qr.code, s.id, email);
    }
    await mail.peer.waitFor(email, { count: 3 });
    await settle();
    expect(mail.peer.to(email)).toHaveLength(3);
    // confirming one makes room for another
    await page().post(linkIn(mail.peer.to(email)[0]!, '/follow/confirm'));
    const next = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'One more' });
    await followFromPage(qr.code, next.id, email);
    await mail.peer.waitFor(email, { count: 4 });
  });

  it("When a business's page has sent its hourly follow confirmations, then the next follow is a 429 with Retry-After, and nothing is sent", async () => {
    const { t, qr, s } = await scene();
    const [first, second, third] = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')];
    const fromPage = (email: string) =>
      supertest(capped.app).post(`/f/${qr.code}/follow/${s.id}`).set('Origin', ORIGIN).type('form').send({ email });
    expect((await fromPage(first)).status).toBe(303);
    expect((await fromPage(second)).status).toBe(303);
    const refused = await fromPage(third);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.text).toContain('no confirmation was sent');
    const json = await supertest(capped.app)
      .post(`/public/suggestions/${s.id}/follow`)
      .set('Origin', ORIGIN)
      .send({ code: qr.code, email: third });
    expect(json.status).toBe(429);
    expect(json.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    // another business's page is not held back
    const other = await scene();
    const elsewhere = uniqueEmail('d');
    const fine = await supertest(capped.app)
      .post(`/f/${other.qr.code}/follow/${other.s.id}`)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ email: elsewhere });
    expect(fine.status).toBe(303);
    await capped.peer.waitFor(elsewhere);
    await settle();
    for (const email of [first, second]) expect(capped.peer.to(email)).toHaveLength(1);
    expect(capped.peer.to(third)).toHaveLength(0);
    expect(t.business.id).not.toBe(other.t.business.id);
  });
});
