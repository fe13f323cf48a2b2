import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page } from 'playwright-core';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { FollowNotifier } from '../../src/follows/follow.notifier.js';
import { useTestApp } from '../support/app.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';
import { buildQrCode, buildSuggestion, uniqueEmail } from '../support/factories.js';
import { useSmtpApp, type ReceivedMail } from '../support/mail.js';

/**
 * The changelog and the roadmap in a browser, JavaScript on and off: an entry written, previewed and
 * published in the dashboard reaches a confirmed follower of its suggestion as exactly one email (a
 * real SMTP peer on loopback), a vote on the page offers the follow, and every page is axe clean at a
 * phone's and a desktop's size. "Off" blocks the pages' own scripts, so the document is the one a
 * browser without JavaScript gets, and axe can still run on it.
 */
const ctx = useTestApp();
const served = useBrowserServer(ctx);
const mail = useSmtpApp(ctx, { poll: true });
const title = browserTitle;
const SCRIPTS = /\/assets\/(page|dashboard)\.[0-9a-f]+\.js$/;

/** The follow form and its confirmation, through the app that mails (its PUBLIC_BASE_URL's origin). */
const ORIGIN = 'http://localhost:3000';
function linkIn(message: ReceivedMail, path: string): string {
  const match = new RegExp(`${ORIGIN}(${path}\\?token=[A-Za-z0-9._%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link in:\n${message.text}`);
  return match[1]!;
}
async function confirmedFollower(code: string, suggestionId: string): Promise<string> {
  const email = uniqueEmail('follower');
  const page = () => supertest(mail.app);
  const res = await page().post(`/f/${code}/follow/${suggestionId}`).set('Origin', ORIGIN).type('form').send({ email });
  expect(res.status).toBe(303);
  const confirmation = await mail.peer.waitFor(email, { timeoutMs: 60_000 });
  expect((await page().post(linkIn(confirmation, '/follow/confirm'))).status).toBe(200);
  return email;
}

async function signedIn(javaScript: boolean) {
  const owner = await ownerSignedIn(ctx, served, true);
  if (!javaScript) await owner.context.route(SCRIPTS, (route) => route.abort());
  return owner;
}

/** Clicks a button that leads to another page, and waits for it. */
async function go(page: Page, name: string) {
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name, exact: true }).click()]);
}

describe.each([
  ['on', true],
  ['off', false],
])('The changelog and the roadmap in a browser, JavaScript %s', (_label, javaScript) => {
  it.skipIf(!hasChromium)(
    title(
      'When an owner writes, previews and publishes an entry naming a followed suggestion, then its confirmed follower gets exactly one email about it, and each dashboard page is axe clean',
    ),
    async () => {
      const { business, context, page } = await signedIn(javaScript);
      const qr = await buildQrCode(ctx.db, business.id);
      const s = await buildSuggestion(ctx.db, business.id, { visibility: 'public', content: 'Vegan food please' });
      const email = await confirmedFollower(qr.code, s.id);

      await page.goto(`${served.base}/app/b/${business.id}/changelog`);
      await expectAccessible(page, 'the empty changelog');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Write an entry' }).click()]);
      await page.getByLabel('The title').fill('A vegan menu');
      await page.getByLabel('The text').fill('**Every day**, from Monday. <script>alert(1)</script>');
      await page.getByLabel('Find suggestions').fill('vegan');
      await go(page, 'Search');
      await page.getByLabel(/Vegan food please/).check();
      await go(page, 'Preview');
      await expect(page.locator('#entry-preview strong').textContent()).resolves.toBe('Every day');
      await expect(page.locator('#entry-preview').textContent()).resolves.toContain('<script>alert(1)</script>');
      expect(await page.getByLabel(/Vegan food please/).isChecked()).toBe(true);
      await expectAccessible(page, 'the preview');
      await go(page, 'Save as a draft');
      expect(page.url()).toMatch(/\?saved=added$/);
      await expectAccessible(page, 'the saved draft');
      expect(await page.getByLabel(/Email the followers/).isChecked()).toBe(true);
      await go(page, 'Publish the entry');
      expect(page.url()).toMatch(/\?saved=published$/);
      await expectAccessible(page, 'the published entry');
      await page.goto(`${served.base}/app/b/${business.id}/changelog`);
      await expectAccessible(page, 'the changelog with an entry');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'A vegan menu' }).click()]);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Delete this entry' }).click()]);
      await expectAccessible(page, 'the delete question');
      await page.goto(`${served.base}/app/b/${business.id}/settings/roadmap`);
      await expectAccessible(page, 'the roadmap settings');

      const notifier = new FollowNotifier(ctx.db.pool, mail.sender, createLogger('silent'), {
        baseUrl: ORIGIN,
        perBusinessPerHour: 1000,
        pollIntervalMs: 60_000,
      });
      expect(await notifier.runDue()).toBe(1);
      const message = await mail.peer.waitFor(email, { count: 2, timeoutMs: 60_000 });
      expect(message.subject).toContain('A vegan menu');
      expect(await notifier.runDue(new Date(Date.now() + 6 * 60_000))).toBe(0);
      await sleep(500);
      expect(mail.peer.to(email).filter((m) => m.subject.includes('A vegan menu'))).toHaveLength(1);
      expect(mail.peer.to(email)).toHaveLength(2);
      await context.close();
    },
    240_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When a visitor opens the roadmap and the changelog and votes, then each page is axe clean and the vote offers the follow',
    ),
    async () => {
      const owner = await signedIn(true);
      await owner.context.close();
      const businessId = owner.business.id;
      const qr = await buildQrCode(ctx.db, businessId);
      for (const [content, status] of [
        ['Oat milk', 'reviewing'],
        ['Longer hours', 'in_progress'],
        ['Vegan food please', 'completed'],
      ] as const)
        await buildSuggestion(ctx.db, businessId, { visibility: 'public', content, status });
      const entry = await ctx.db.pool.query<{ id: string }>(
        `INSERT INTO changelog_entries (id, business_id, title, body, body_html, suggestion_ids, published_at)
         VALUES (gen_random_uuid(), $1, 'Vegan menu', '**Yes**', '<p><strong>Yes</strong></p>', '{}', now()) RETURNING id`,
        [businessId],
      );
      const context: BrowserContext = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        bypassCSP: true,
      });
      if (!javaScript) await context.route(SCRIPTS, (route) => route.abort());
      const page = await context.newPage();
      const base = `${served.base}/f/${qr.code}`;
      for (const [path, state] of [
        ['/roadmap', 'the roadmap'],
        ['/changelog', 'the changelog'],
        [`/changelog/${entry.rows[0]!.id}`, 'a changelog entry'],
      ] as const) {
        await page.goto(`${base}${path}`);
        await expectAccessible(page, state);
      }
      await page.goto(base);
      const item = page.locator('#items .item', { hasText: 'Oat milk' });
      if (javaScript) {
        await item.locator('form.vote button').click();
        await item.locator('details.follow[open] input[type="email"]').waitFor({ timeout: 30_000 });
      } else {
        await Promise.all([page.waitForNavigation(), item.locator('form.vote button').click()]);
        expect(page.url()).toContain('voted=');
        await expect(page.locator('#voted blockquote').textContent()).resolves.toBe('Oat milk');
      }
      await expectAccessible(page, 'the page after a vote');
      await context.close();
    },
    240_000,
  );
});
