import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion } from '../support/factories.js';
import {
  browserTitle,
  expectAccessible,
  hasChromium,
  ownerSignedIn,
  PHONE,
  useBrowserServer,
} from '../support/browser.js';

const ctx = useTestApp();
const served = useBrowserServer(ctx);

async function submit(page: Page, button: string, notice: string) {
  await page.getByRole('button', { name: button }).click();
  await page.waitForLoadState();
  await expect.poll(() => page.getByRole('status').first().textContent()).toContain(notice);
}

describe.each([
  ['on', true],
  ['off', false],
])('the brand in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle(
      'When the owner sets a colour (after a refused one) and a logo in Settings, Brand, then the public page shows both, under its strict CSP',
    ),
    { timeout: 180_000 },
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const qr = await buildQrCode(ctx.db, business.id);
      await buildSuggestion(ctx.db, business.id, {
        content: 'More shade on the terrace',
        visibility: 'public',
        reviewState: 'not_required',
      });

      await page.goto(`${served.base}/app/b/${business.id}/settings`);
      await page.getByRole('link', { name: "Brand: the page's colour and logo" }).click();
      await page.waitForLoadState();
      await check(page, 'brand settings, nothing set');

      await page.getByLabel('Brand colour').fill('#ffd700');
      await page.getByRole('button', { name: 'Save the colour' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#brand-color-error').textContent()).toContain('1.28:1');
      await check(page, 'brand settings, a colour refused');

      await page.getByLabel('Brand colour').fill('#1d5e34');
      await submit(page, 'Save the colour', 'The colour is saved.');
      const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#1d5e34' } })
        .png()
        .toBuffer();
      await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await submit(page, 'Upload the logo', 'The logo is saved.');
      await check(page, 'brand settings, colour and logo');

      // The public page, in a context that keeps the page's Content-Security-Policy.
      const visitor = await served.browser.newContext({ viewport: PHONE, javaScriptEnabled: javaScript });
      const view = await visitor.newPage();
      const refused: string[] = [];
      view.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await view.goto(`${served.base}/f/${qr.code}`);
      await expect.poll(() => view.getByRole('img', { name: business.name }).isVisible()).toBe(true);
      const button = view.getByRole('button', { name: 'Send feedback' });
      expect(
        await button.evaluate(
          (el) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
              el,
            ).backgroundColor,
        ),
      ).toBe('rgb(29, 94, 52)');
      expect(refused).toEqual([]);
      await visitor.close();

      await page.goto(`${served.base}/f/${qr.code}`);
      await check(page, 'public page with the brand');
      await context.close();
    },
  );
});
