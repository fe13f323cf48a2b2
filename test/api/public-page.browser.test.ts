import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { ScanCounter } from '../../src/public-page/scan-counter.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import { buildLocation, buildQrCode, buildSuggestion, buildTenant } from '../support/factories.js';
import { axeViolations, browserTitle, hasChromium, launchChromium, PHONE } from '../support/browser.js';

const ctx = useTestApp();

/**
 * Screenshots: to test/artifacts (git-ignored) on every run; to docs/images, where the README shows
 * them, only with UPDATE_SCREENSHOTS=1, so a test run never leaves committed files changed (the test
 * businesses have random names).
 */
const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/images/' : '../artifacts/', import.meta.url),
);

/** The page's clock: moved past the form's minimum fill time before each post, instead of waiting. */
let now = Date.now();
let server: Server;
let base = '';
let browser: Browser;
let api: () => supertest.Agent;
const requested: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  const { logger } = capturingLogger();
  const rateLimiters = createRateLimiters({
    limit: 100_000,
    failedAuthLimit: 100_000,
    pageWriteLimit: 100_000,
    pageReadLimit: 100_000,
    logger,
  });
  const app = createApp({
    db: ctx.db,
    logger,
    rateLimiters,
    publicPage: { now: () => now, scans: new ScanCounter(ctx.db.pool, logger, 0) },
  });
  api = () => supertest.agent(app);
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  if (!hasChromium) return;
  await browser.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A phone; axe is injected past the page's CSP (bypassCSP), which the page itself never needs. */
async function phone(javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: true });
  context.on('request', (request) => requested.push(request.url()));
  return context;
}

/** axe-core on the page as it stands: no serious or critical violation. */
async function expectAccessible(page: Page, state: string) {
  const violations = await axeViolations(page);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    state,
  ).toEqual([]);
}

async function scene(approvalRequired = false) {
  const t = await buildTenant(ctx.db, { approvalRequired });
  const location = await buildLocation(ctx.db, t.business.id, 'Terrace');
  const qr = await buildQrCode(ctx.db, t.business.id, { locationId: location.id });
  const existing = await buildSuggestion(ctx.db, t.business.id, {
    visibility: 'public',
    content: 'Oat milk for the flat whites, please',
    customerName: 'Ana',
    status: 'in_progress',
  });
  return { t, qr, existing, url: `${base}/f/${qr.code}` };
}

async function postFeedback(page: Page, content: string, name?: string) {
  await page.locator('#content').fill(content);
  if (name) await page.locator('#customer_name').fill(name);
  now += 5_000;
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await page.waitForURL(/thanks=/);
}

const voteButton = (page: Page, id: string) => page.locator(`#items #s-${id} form.vote button`);

async function vote(page: Page, id: string, javaScript: boolean) {
  const button = voteButton(page, id);
  const pressed = await button.getAttribute('aria-pressed');
  const want = pressed === 'true' ? 'false' : 'true';
  if (javaScript) {
    await button.click();
  } else {
    await Promise.all([page.waitForURL(/sort=/), button.click()]);
  }
  await expect.poll(() => voteButton(page, id).getAttribute('aria-pressed')).toBe(want);
}

const countOf = async (page: Page, id: string) => (await voteButton(page, id).locator('.count').textContent())?.trim();

const title = browserTitle;

describe.each([
  ['on', true],
  ['off', false],
])('the feedback page in a phone browser, JavaScript %s', (_label, javaScript) => {
  const shoot = (page: Page, name: string) =>
    javaScript ? page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true }) : Promise.resolve();
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    title('When a customer scans, posts, votes and takes a vote back, then the page follows at every step'),
    async () => {
      const { existing, url } = await scene();
      const first = await phone(javaScript);
      const page = await first.newPage();
      const opened = await page.goto(url);
      expect(opened?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^Business /);
      await check(page, 'opened');
      await shoot(page, 'public-page');

      await postFeedback(page, 'The new terrace heaters are lovely', 'Bea');
      await expect(page.getByRole('status').textContent()).resolves.toContain('Thank you!');
      await expect(page.locator('#items').textContent()).resolves.toContain('The new terrace heaters are lovely');
      // "email me when this moves", open right under the feedback just sent
      expect(await page.locator('.notice details.follow').getAttribute('open')).not.toBeNull();
      await check(page, 'thanked');
      await shoot(page, 'public-page-thanks');

      await vote(page, existing.id, javaScript);
      expect(await countOf(page, existing.id)).toBe('1');
      await page.reload();
      expect(await voteButton(page, existing.id).getAttribute('aria-pressed')).toBe('true');
      await check(page, 'voted');
      await shoot(page, 'public-page-voted');

      const second = await phone(javaScript);
      const other = await second.newPage();
      await other.goto(url);
      await vote(other, existing.id, javaScript);
      expect(await countOf(other, existing.id)).toBe('2');

      await vote(page, existing.id, javaScript);
      expect(await countOf(page, existing.id)).toBe('1');
      await first.close();
      await second.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When the business has replied to a suggestion, then the page shows the answer under it, marked as theirs'),
    async () => {
      const { t, existing, url } = await scene();
      const replied = await api()
        .put(`/api/v1/suggestions/${existing.id}/reply`)
        .set('X-API-Key', t.write)
        .send({ content: 'Oat milk arrives on Monday!' });
      expect(replied.status).toBe(200);
      const context = await phone(javaScript);
      const page = await context.newPage();
      await page.goto(url);
      const reply = page.locator(`#items #s-${existing.id} .reply`);
      await expect(reply.textContent()).resolves.toContain(`Answer from ${t.business.name}`);
      await expect(reply.textContent()).resolves.toContain('Oat milk arrives on Monday!');
      await check(page, 'replied');
      await shoot(page, 'public-page-reply');
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When a customer follows a suggestion by email, then the page says a confirmation is on its way'),
    async () => {
      const { existing, url } = await scene();
      const context = await phone(javaScript);
      const page = await context.newPage();
      await page.goto(url);
      const item = page.locator(`#items #s-${existing.id}`);
      await item.getByText('Email me when this moves').click();
      const email = `follower-${existing.id}@example.test`;
      await item.getByLabel('Your email').fill(email);
      await check(page, 'follow form open');
      await Promise.all([page.waitForURL(/followed=1/), item.getByRole('button', { name: 'Follow' }).click()]);
      await expect(page.getByRole('status').textContent()).resolves.toContain('Check your inbox');
      await check(page, 'followed');
      await shoot(page, 'public-page-followed');
      const { rows } = await ctx.db.pool.query(
        'SELECT confirmed_at FROM suggestion_follows WHERE suggestion_id = $1 AND email = $2',
        [existing.id, email],
      );
      expect(rows).toEqual([{ confirmed_at: null }]);
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When the business requires approval, then the customer sees the notice, may follow their feedback, and sees it once approved',
    ),
    async () => {
      const { t, url } = await scene(true);
      const context = await phone(javaScript);
      const page = await context.newPage();
      await page.goto(url);
      await postFeedback(page, 'Could you open earlier on Sundays?');
      await expect(page.getByRole('status').textContent()).resolves.toContain('after review');
      await expect(page.locator('#items').textContent()).resolves.not.toContain('open earlier on Sundays');
      await check(page, 'awaiting review');
      await shoot(page, 'public-page-review');
      const { rows } = await ctx.db.pool.query(
        `SELECT id FROM suggestions WHERE business_id = $1 AND review_state = 'pending'`,
        [t.business.id],
      );
      // its author may follow it while it awaits review, from the notice (docs/notifications.md)
      const notice = page.locator('.notice');
      const email = `author-${rows[0].id}@example.test`;
      await notice.getByLabel('Your email').fill(email);
      await Promise.all([page.waitForURL(/followed=1/), notice.getByRole('button', { name: 'Follow' }).click()]);
      await expect(page.getByRole('status').textContent()).resolves.toContain('Check your inbox');
      const follows = await ctx.db.pool.query(
        'SELECT confirmed_at FROM suggestion_follows WHERE suggestion_id = $1 AND email = $2',
        [rows[0].id, email],
      );
      expect(follows.rows).toEqual([{ confirmed_at: null }]);
      const approved = await api()
        .patch(`/businesses/${t.business.id}/suggestions/${rows[0].id}`)
        .set('X-API-Key', t.write)
        .send({ review: 'approve' });
      expect(approved.status).toBe(200);
      await page.reload();
      await expect(page.locator('#items').textContent()).resolves.toContain('open earlier on Sundays');
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When an inactive code is scanned, then its page says so, with no form'),
    async () => {
      const t = await buildTenant(ctx.db);
      const qr = await buildQrCode(ctx.db, t.business.id, { active: false });
      const context = await phone(javaScript);
      const page = await context.newPage();
      const res = await page.goto(`${base}/f/${qr.code}`);
      expect(res?.status()).toBe(410);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This code is no longer active',
      );
      expect(await page.locator('form').count()).toBe(0);
      await check(page, 'inactive');
      await shoot(page, 'public-page-inactive');
      await context.close();
      // Nothing left the machine.
      expect(requested.filter((address) => !address.startsWith(base))).toEqual([]);
    },
    60_000,
  );
});
