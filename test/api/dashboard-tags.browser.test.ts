import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildApiKey, buildQrCode, buildSuggestion } from '../support/factories.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';

const ctx = useTestApp();

const served = useBrowserServer(ctx);
const title = browserTitle;

/** Submits a form by its button and waits for the page it lands on, with its notice. */
async function submit(page: Page, button: string, notice: string) {
  await page.getByRole('button', { name: button }).click();
  await page.waitForLoadState();
  await expect.poll(() => page.getByRole('status').textContent()).toContain(notice);
}

describe.each([
  ['on', true],
  ['off', false],
])('tagging in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    title(
      'When the owner defines tags in Settings and tags a suggestion on its page, then the API, the inbox and the public page show them',
    ),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const key = await buildApiKey(ctx.db, business.id, { scope: 'read' });
      const qr = await buildQrCode(ctx.db, business.id);
      const s = await buildSuggestion(ctx.db, business.id, {
        content: 'More shade on the terrace',
        visibility: 'public',
        reviewState: 'not_required',
      });
      await buildSuggestion(ctx.db, business.id, { content: 'Stronger coffee' });

      // Settings, Tags: two tags, one of them public
      await page.goto(`${served.base}/app/b/${business.id}/settings`);
      await page.getByRole('link', { name: 'Manage the tags' }).click();
      await page.waitForLoadState();
      await check(page, 'tags, none yet');
      await page.getByLabel('New tag').fill('Terrace');
      await page.getByLabel('Public').check();
      await submit(page, 'Add the tag', 'The tag is added.');
      await page.getByLabel('New tag').fill('escalate');
      await submit(page, 'Add the tag', 'The tag is added.');
      await page.getByLabel('New tag').fill('terrace');
      await page.getByRole('button', { name: 'Add the tag' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#new-tag-error').textContent()).toContain('A tag named "terrace" already exists');
      await check(page, 'tags, a name taken');

      // The suggestion's page: tag it
      await page.goto(`${served.base}/app/b/${business.id}/suggestions/${s.id}`);
      expect(await page.locator('#current-tags').textContent()).toContain('None');
      await page.getByRole('checkbox', { name: 'Terrace' }).check();
      await page.getByRole('checkbox', { name: 'escalate' }).check();
      await submit(page, 'Save the tags', 'The tags are saved.');
      expect(await page.locator('#current-tags').textContent()).toContain('escalate');
      expect(await page.locator('#current-tags').textContent()).toContain('Terrace');
      expect(await page.locator('.history').textContent()).toContain('Tags: none → escalate, Terrace');
      await check(page, 'suggestion with tags');

      const read = await ctx.request().get(`/api/v1/suggestions/${s.id}`).set('X-API-Key', key.key);
      expect(read.body.tags).toEqual(['escalate', 'Terrace']);

      // The inbox, filtered by a tag
      await page.goto(`${served.base}/app/b/${business.id}`);
      await page.getByLabel('Tag').selectOption('Terrace');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#inbox-total').textContent()).toBe('1');
      expect(await page.locator('.inbox tbody').textContent()).toContain('More shade on the terrace');
      expect(await page.locator('.inbox tbody').textContent()).not.toContain('Stronger coffee');
      await check(page, 'inbox filtered by a tag');

      // The public page: the public tag only
      const publicPage = await context.newPage();
      await publicPage.goto(`${served.base}/f/${qr.code}`);
      const item = publicPage.locator(`#s-${s.id}`);
      expect(await item.getByRole('list', { name: 'Tags' }).textContent()).toContain('Terrace');
      expect(await item.textContent()).not.toContain('escalate');
      await context.close();
    },
    90_000,
  );
});
