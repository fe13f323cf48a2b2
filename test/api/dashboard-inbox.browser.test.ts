import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildSuggestion, buildTag } from '../support/factories.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';

/** Issue 40 item 6 in the inbox: no sideways scroll on a phone, bulk Approve, and the key's redirect. */
const ctx = useTestApp();
const served = useBrowserServer(ctx);
const LONG = 'Please-add-oat-milk-for-the-flat-whites-and-the-cortados-'.repeat(4);

describe.each([
  ['on', true],
  ['off', false],
])('the inbox in a browser, JavaScript %s', (_label, javaScript) => {
  it.skipIf(!hasChromium)(
    browserTitle('When a phone opens a full inbox, then nothing scrolls sideways; Approve the selected approves them'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await ctx.db.pool.query('UPDATE businesses SET approval_required = true WHERE id = $1', [business.id]);
      for (const name of ['terrace', 'card reader', 'oat milk']) await buildTag(ctx.db, business.id, { name });
      const waiting = await buildSuggestion(ctx.db, business.id, {
        content: LONG,
        customerName: 'Maria-Fernanda Albuquerque-Vasconcelos',
        visibility: 'public',
        reviewState: 'pending',
        tags: ['terrace', 'card reader', 'oat milk'],
      });
      for (let i = 0; i < 5; i++) await buildSuggestion(ctx.db, business.id, { content: `${LONG} ${i}` });
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(`${served.base}/app/b/${business.id}`);
        expect(
          await page.evaluate(
            () =>
              (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
                .documentElement.scrollWidth,
          ),
        ).toBeLessThanOrEqual(width);
        if (javaScript) await expectAccessible(page, `the inbox at ${width}`);
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator(`#select-${waiting.id}`).check();
      await page.getByRole('button', { name: 'Approve the selected' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('approved');
      const { rows } = await ctx.db.pool.query('SELECT review_state FROM suggestions WHERE id = $1', [waiting.id]);
      expect(rows[0].review_state).toBe('approved');

      await page.goto(`${served.base}/app/b/${business.id}/integrations`);
      await page.getByLabel('Name').fill('Till sync');
      await page.getByRole('button', { name: 'Create the key' }).click();
      await page.waitForLoadState();
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}/integrations`);
      expect(await page.locator('#new-key').inputValue()).toMatch(/^fbk_/);
      if (javaScript) await expectAccessible(page, 'the new key, shown once');
      await page.reload();
      expect(await page.locator('#new-key').count()).toBe(0);
      const keys = await ctx.db.pool.query("SELECT 1 FROM api_keys WHERE business_id = $1 AND name = 'Till sync'", [
        business.id,
      ]);
      expect(keys.rows).toHaveLength(1);
      await context.close();
    },
    180_000,
  );
});
