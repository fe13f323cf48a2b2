import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildSuggestion, buildTag } from '../support/factories.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';

/** Item 6 of issue 40 as a person meets it: History, deleting a tag, opening an issue. */
const ctx = useTestApp();
const served = useBrowserServer(ctx);

/** Clicks a button and waits for the page it lands on. */
async function press(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.waitForLoadState();
}

describe.each([
  ['on', true],
  ['off', false],
])('the dashboard findings in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle('When the owner replies, moves the status and merges, then History says each in words, with a link'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const target = await buildSuggestion(ctx.db, business.id, { content: 'Please add oat milk for the flat whites' });
      const duplicate = await buildSuggestion(ctx.db, business.id, { content: 'Add oat milk for the flat whites!' });
      const page1 = `${served.base}/app/b/${business.id}/suggestions/${duplicate.id}`;
      await page.goto(page1);
      await page.getByLabel('Reply in public').fill('Oat milk arrives on Monday');
      await press(page, 'Save the reply');
      await page.getByLabel('Status').selectOption({ label: 'In progress' });
      await press(page, 'Save the changes');
      const history = page.getByRole('region', { name: 'History' });
      expect(await history.textContent()).toContain('Reply added: “Oat milk arrives on Monday”');
      expect(await history.textContent()).toContain('Status: Pending → In progress');
      expect(await history.textContent()).not.toContain('in_progress');
      await check(page, 'suggestion with a reply and a status change in History');

      await page.goto(`${served.base}/app/b/${business.id}/suggestions/${target.id}`);
      await press(page, 'Merge into this one');
      await page.goto(page1);
      const merged = history.getByRole('listitem').filter({ hasText: 'Merged into' });
      const link = merged.getByRole('link', { name: 'Please add oat milk for the flat whites' });
      expect(await link.getAttribute('href')).toBe(`/app/b/${business.id}/suggestions/${target.id}`);
      await link.click();
      await page.waitForLoadState();
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}/suggestions/${target.id}`);
      await page.goto(page1);
      await check(page, 'a merged suggestion with its History');
      await context.close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    browserTitle('When the owner deletes a tag, then a page asks first; Cancel keeps it, the button deletes it'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await buildTag(ctx.db, business.id, { name: 'Terrace' });
      const tags = `${served.base}/app/b/${business.id}/settings/tags`;
      await page.goto(tags);
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      await page.getByRole('link', { name: 'Delete Terrace' }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete the tag “Terrace”?');
      await check(page, 'deleting a tag, asked first');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#tag-list').textContent()).toContain('Terrace');
      await page.getByRole('link', { name: 'Delete Terrace' }).click();
      await page.waitForLoadState();
      await press(page, 'Delete the tag');
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The tag is deleted');
      expect(await page.locator('#tag-list').count()).toBe(0);
      await context.close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    browserTitle('When the owner opens an issue on the Issues page, then it is listed; a missing title is marked'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await buildTag(ctx.db, business.id, { name: 'card reader' });
      await page.goto(`${served.base}/app/b/${business.id}/issues`);
      await check(page, 'issues, none yet');
      await page.getByText('Open an issue').click();
      await page.getByLabel('Description').fill('Every tap is declined since this morning.');
      await press(page, 'Open the issue');
      expect(await page.locator('#issue-title-error').textContent()).toBe('The title is required.');
      expect(await page.getByLabel('Description').inputValue()).toBe('Every tap is declined since this morning.');
      await check(page, 'opening an issue, the title missing');
      await page.getByLabel('Title').fill('Card reader rejects contactless');
      await page.locator('#issue-priority').selectOption({ label: 'High' });
      await page.getByRole('checkbox', { name: 'card reader' }).check();
      await press(page, 'Open the issue');
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The issue is open');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Card reader rejects contactless');
      await check(page, 'the issue just opened');
      await page.getByRole('link', { name: 'Back to the issues' }).click();
      await page.waitForLoadState();
      expect(await page.locator('#issues-total').textContent()).toBe('1');
      expect(await page.locator('table').textContent()).toContain('High');
      await context.close();
    },
    120_000,
  );
});
