import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildApiKey, buildIssue, buildQrCode, buildSuggestion } from '../support/factories.js';
import {
  browserTitle,
  DESKTOP,
  expectAccessible,
  hasChromium,
  PHONE,
  SCREENSHOTS,
  ownerSignedIn,
  useBrowserServer,
} from '../support/browser.js';

const ctx = useTestApp();

const served = useBrowserServer(ctx);
const title = browserTitle;

describe.each([
  ['on', true],
  ['off', false],
])('triage in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());
  /** A desktop screenshot for the README, taken in the run with JavaScript on. */
  const shoot = async (page: Page, name: string) => {
    if (!javaScript) return;
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
    await page.setViewportSize(PHONE);
  };

  it.skipIf(!hasChromium)(
    title('When the owner changes the status of two suggestions at once, then the API and the event feed see it'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const key = await buildApiKey(ctx.db, business.id, { scope: 'read' });
      const a = await buildSuggestion(ctx.db, business.id, { content: 'Oat milk, please', customerName: 'Ana' });
      const b = await buildSuggestion(ctx.db, business.id, { content: 'More shade outside' });
      const c = await buildSuggestion(ctx.db, business.id, { content: 'Leave this one' });
      await page.reload();
      await check(page, 'inbox');
      await page.getByRole('checkbox', { name: 'Oat milk, please' }).check();
      await page.getByRole('checkbox', { name: 'More shade outside' }).check();
      await page.getByLabel('New status').selectOption('completed');
      await page.getByRole('button', { name: 'Change the selected' }).click();
      await page.waitForLoadState();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toContain('The selected suggestions are changed.');
      await check(page, 'inbox after a change');
      await shoot(page, 'dashboard-inbox');

      const read = async (id: string) =>
        ((await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', key.key)).body as { status: string })
          .status;
      expect([await read(a.id), await read(b.id), await read(c.id)]).toEqual(['completed', 'completed', 'pending']);
      // The feed (bounded retries: on PostgreSQL it lists an event once older transactions have ended).
      let changed: string[] = [];
      for (let i = 0; i < 100 && changed.length < 2; i++) {
        const feed = await ctx.request().get('/api/v1/events').set('X-API-Key', key.key).query({ limit: 100 });
        changed = (feed.body.data as { type: string; data: { object: { id: string } } }[])
          .filter((e) => e.type === 'suggestion.updated')
          .map((e) => e.data.object.id);
        if (changed.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(changed.sort()).toEqual([a.id, b.id].sort());
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When the owner approves a suggestion awaiting review on its page, then it appears on the public page'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const qr = await buildQrCode(ctx.db, business.id);
      const s = await buildSuggestion(ctx.db, business.id, {
        content: 'A rack for bicycles',
        visibility: 'public',
        reviewState: 'pending',
        customerName: 'Ben',
      });
      const publicPage = await context.newPage();
      await publicPage.goto(`${served.base}/f/${qr.code}`);
      expect(await publicPage.content()).not.toContain('A rack for bicycles');

      await page.reload();
      await page.getByRole('link', { name: 'A rack for bicycles' }).click();
      await page.waitForLoadState();
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}/suggestions/${s.id}`);
      await check(page, 'suggestion awaiting review');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The suggestion is approved.');
      expect(await page.locator('#current-review').textContent()).toBe('Approved');

      await page.getByLabel('Add a comment').fill('Ordered: it comes next week');
      await page.getByRole('button', { name: 'Add the comment' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#comments').textContent()).toContain('Ordered: it comes next week');
      await check(page, 'suggestion after a comment');

      await publicPage.reload();
      expect(await publicPage.content()).toContain('A rack for bicycles');
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When the owner opens Issues, assigns an issue to themself and resolves it, then the page shows it resolved'),
    async () => {
      const { business, owner, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await buildIssue(ctx.db, business.id, { title: 'The card reader declines taps' });
      await page.getByRole('link', { name: 'Issues' }).click();
      await page.waitForLoadState();
      await check(page, 'issues');
      await page.getByRole('link', { name: 'The card reader declines taps' }).click();
      await page.waitForLoadState();
      await page.getByLabel('Assignee').selectOption(owner.id);
      await page.getByRole('button', { name: 'Save the changes' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#current-status').textContent()).toBe('Assigned');
      await page.getByLabel('Status').selectOption('resolved');
      await page.getByRole('button', { name: 'Save the changes' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#current-status').textContent()).toBe('Resolved');
      expect(await page.locator('#current-resolved').textContent()).toMatch(/UTC$/);
      await check(page, 'issue');
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When the owner creates a QR code, downloads its PNG, opens its print sheet and deactivates it, then each works',
    ),
    async () => {
      const { context, page } = await ownerSignedIn(ctx, served, javaScript);
      await page.getByRole('link', { name: 'QR codes' }).click();
      await page.waitForLoadState();
      await page.getByLabel('Label').fill('Terrace, table 4');
      await page.getByRole('button', { name: 'Create the QR code' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The QR code is created.');
      expect(await page.locator('.scans').first().textContent()).toBe('0 scans in the last 30 days');
      await check(page, 'QR codes');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download PNG of Terrace, table 4' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^qr-\w+\.png$/);
      await page.getByRole('link', { name: 'Print sheet of Terrace, table 4' }).click();
      await page.waitForLoadState();
      expect(
        await page.locator('.sheet-code').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBe(256);
      await check(page, 'print sheet');
      await page.goBack();
      await page.getByRole('button', { name: 'Deactivate Terrace, table 4' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('deactivated');
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When the owner opens Analytics, then its SVG charts are drawn with their tables, and nothing comes from another host',
    ),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await buildSuggestion(ctx.db, business.id, { sentiment: 'positive' });
      await page.getByRole('link', { name: 'Analytics' }).click();
      await page.waitForLoadState();
      expect(await page.locator('svg.bars[role="img"]').count()).toBe(3);
      // positive, neutral, negative, and what no lexicon scored
      expect(await page.locator('#chart-sentiment svg rect').count()).toBe(4);
      expect(await page.locator('#chart-sentiment table tbody tr').count()).toBe(4);
      expect(requested.every((url) => url.startsWith(served.base))).toBe(true);
      await check(page, 'analytics');
      await shoot(page, 'dashboard-analytics');
      await context.close();
    },
    60_000,
  );
});
