import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';

const ctx = useTestApp();
const served = useBrowserServer(ctx);

const BROKEN = 'content,status\r\nMore oat milk please,reviewing\r\n,pending\r\n';
const FIXED = 'content,status\r\nMore oat milk please,reviewing\r\nA quieter corner for calls,pending\r\n';

const choose = (page: Page, text: string) =>
  page.getByLabel('CSV file').setInputFiles({ name: 'feedback.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

async function press(page: Page, button: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForLoadState();
}

describe.each([
  ['on', true],
  ['off', false],
])('the Import page in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle(
      'When the owner uploads a CSV file with a bad row, then the dry run names it; the fixed file dry-runs clean, Import writes it, and the inbox shows the suggestions',
    ),
    { timeout: 180_000 },
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await page.goto(`${served.base}/app/b/${business.id}/settings`);
      await page.getByRole('link', { name: 'Import from a CSV file' }).click();
      await page.waitForLoadState();
      await check(page, 'import page, empty');

      await choose(page, BROKEN);
      await press(page, 'Dry run');
      const errors = page.getByRole('table', { name: 'Rows with errors' });
      expect(await errors.getByRole('row').nth(1).textContent()).toBe('3contentEmpty, but required');
      expect(await page.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
      await check(page, 'import page, a row refused');

      await choose(page, FIXED);
      await press(page, 'Dry run');
      expect(await page.getByRole('status').first().textContent()).toContain('2 rows: 2 created, 0 already here');
      expect(await page.getByRole('heading', { name: 'Dry run: nothing was written' }).count()).toBe(1);
      await check(page, 'import page, a clean dry run');

      // The file's text is carried: Import does not need the file chosen again.
      expect(await page.getByLabel('Or the CSV text').inputValue()).toContain('A quieter corner for calls');
      await press(page, 'Import');
      expect(await page.getByRole('heading', { name: 'Imported' }).count()).toBe(1);
      expect(await page.getByRole('status').first().textContent()).toContain('2 rows: 2 created');

      await page.goto(`${served.base}/app/b/${business.id}`);
      await expect.poll(() => page.getByText('A quieter corner for calls').count()).toBeGreaterThan(0);
      expect(await page.getByText('More oat milk please').count()).toBeGreaterThan(0);
      await context.close();
    },
  );
});
