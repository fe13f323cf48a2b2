import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { dashboardUrl } from '../../src/config/config.js';
import type { Database } from '../../src/db/database.js';
import { issueSetupLink } from '../../src/setup/setup.service.js';
import { capturingLogger, type TestContext } from '../support/app.js';
import { browserTitle, expectAccessible, hasChromium, PHONE, useBrowserServer } from '../support/browser.js';
import { openEmptyTestDatabase } from '../support/database.js';

/**
 * Issue 44's first run as a person meets it: the link start-up logs, opened on a database with no
 * business, leads through the setup form to the new business's dashboard, signed in. Each run needs
 * an empty database of its own (the page is gone once a business exists), so the file's one server
 * is given a new app on a new empty database for each.
 */
const SLOW_MS = 180_000;
const databases: Database[] = [];
const ctx = {
  get db() {
    return databases[0]!;
  },
} as TestContext;
beforeAll(async () => {
  databases.push(await openEmptyTestDatabase());
}, SLOW_MS);
const served = useBrowserServer(ctx);
afterAll(async () => {
  for (const db of databases) await db.close();
}, SLOW_MS);

/** The server on an empty database of its own; the link is the one start-up would log. */
async function emptyServer(): Promise<{ db: Database; link: string }> {
  let db = databases[0]!;
  if (databases.length > 1 || (await db.pool.query('SELECT 1 FROM businesses LIMIT 1')).rowCount) {
    db = await openEmptyTestDatabase();
    databases.push(db);
    served.app = createApp({ db, logger: capturingLogger().logger, config: { PUBLIC_BASE_URL: served.base } });
  }
  const link = await issueSetupLink(db.pool, dashboardUrl({ PUBLIC_BASE_URL: served.base }));
  if (!link) throw new Error('the database is not empty');
  return { db, link };
}

async function press(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.waitForLoadState();
}

describe.each([
  ['on', true],
  ['off', false],
])('the first run in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle('When the logged link is opened and the form filled, then the owner lands signed in on the dashboard'),
    async () => {
      const { db, link } = await emptyServer();
      expect(link).toMatch(new RegExp(`^${served.base}/app/setup#token=fbu_`));
      const token = decodeURIComponent(new URL(link).hash.slice('#token='.length));
      const context = await served.browser.newContext({
        viewport: PHONE,
        javaScriptEnabled: javaScript,
        bypassCSP: true,
      });
      const page = await context.newPage();
      await page.goto(link);
      const tokenField = page.getByLabel('Setup token');
      if (javaScript) {
        // The script moves the token from the address into the form, and hides the field.
        expect(await page.locator('#token').inputValue()).toBe(token);
        expect(await tokenField.isVisible()).toBe(false);
        expect(new URL(page.url()).hash).toBe('');
      } else {
        // Without JavaScript the field is there to paste the token into.
        expect(await tokenField.isVisible()).toBe(true);
        expect(await tokenField.inputValue()).toBe('');
      }
      await check(page, 'the setup page');

      await page.getByLabel('Business name').fill('Café Lumière');
      await page.getByLabel('Your name').fill('Ana Silva');
      await page.getByLabel('Email').fill('ana@example.com');
      await page.getByLabel('Password', { exact: true }).fill('short');
      if (!javaScript) await tokenField.fill(token);
      await press(page, 'Create the business and sign in');
      expect(await page.locator('#password-error').textContent()).toBe('Password must be at least 12 characters.');
      expect(await page.getByLabel('Business name').inputValue()).toBe('Café Lumière');
      await check(page, 'the setup page, the password too short');

      if (!javaScript) await tokenField.fill(token);
      await page.getByLabel('Password', { exact: true }).fill('violet lanterns drift upstream');
      await press(page, 'Create the business and sign in');
      const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM businesses');
      expect(rows).toHaveLength(1);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${rows[0]!.id}`);
      expect(await page.locator('.business-name').textContent()).toContain('Café Lumière');
      expect(await page.locator('a.who').textContent()).toBe('Ana Silva');
      await check(page, 'the new business’s dashboard');

      // The link was used up: the setup page is gone.
      const again = await page.goto(link);
      expect(again?.status()).toBe(404);
      await context.close();
    },
    SLOW_MS,
  );
});
