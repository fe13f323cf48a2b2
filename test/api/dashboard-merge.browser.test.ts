import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildApiKey, buildSuggestion } from '../support/factories.js';
import { browserTitle, expectAccessible, hasChromium, ownerSignedIn, useBrowserServer } from '../support/browser.js';

const ctx = useTestApp();

const served = useBrowserServer(ctx);

describe.each([
  ['on', true],
  ['off', false],
])('merging on the suggestion page, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle('When the owner merges a likely duplicate and unmerges it, then the API sees both, counted once'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const key = await buildApiKey(ctx.db, business.id, { scope: 'write' });
      const target = await buildSuggestion(ctx.db, business.id, { content: 'Please add oat milk for the flat whites' });
      const duplicate = await buildSuggestion(ctx.db, business.id, { content: 'Add oat milk for the flat whites!' });
      await buildSuggestion(ctx.db, business.id, { content: 'The parking is always full' });
      for (const [id, voter] of [
        [target.id, 'both'],
        [duplicate.id, 'both'],
        [duplicate.id, 'other'],
      ] as const) {
        await ctx
          .request()
          .post(`/api/v1/suggestions/${id}/votes`)
          .set('X-API-Key', key.key)
          .send({ voter: { external_id: voter } });
      }
      const read = async (id: string) =>
        (await ctx.request().get(`/api/v1/suggestions/${id}`).set('X-API-Key', key.key)).body as {
          upvote_count: number;
          merged_into: string | null;
        };

      await page.goto(`${served.base}/app/b/${business.id}/suggestions/${target.id}`);
      const duplicates = page.getByRole('region', { name: 'Likely duplicates' });
      await expect.poll(() => duplicates.getByRole('listitem').count()).toBe(1);
      expect(await duplicates.textContent()).toContain('Add oat milk for the flat whites!');
      await check(page, 'suggestion page with a likely duplicate');
      await duplicates.getByRole('button', { name: 'Merge into this one' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The duplicate is merged');
      expect(await read(target.id)).toMatchObject({ upvote_count: 2, merged_into: null });
      expect(await read(duplicate.id)).toMatchObject({ merged_into: target.id });
      expect(await page.getByRole('region', { name: 'Votes 2' }).count()).toBe(1);

      await page.goto(`${served.base}/app/b/${business.id}/suggestions/${duplicate.id}`);
      const merged = page.getByRole('region', { name: 'Merged' });
      expect(await merged.getByRole('link').getAttribute('href')).toBe(
        `/app/b/${business.id}/suggestions/${target.id}`,
      );
      await check(page, 'a merged suggestion');
      await merged.getByRole('button', { name: 'Unmerge' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The suggestion is unmerged');
      expect(await read(duplicate.id)).toMatchObject({ upvote_count: 2, merged_into: null });
      expect(await read(target.id)).toMatchObject({ upvote_count: 1 });
      await context.close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    browserTitle('When the duplicate was merged elsewhere meanwhile, then the page says why the merge is refused'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const key = await buildApiKey(ctx.db, business.id, { scope: 'write' });
      const target = await buildSuggestion(ctx.db, business.id, { content: 'Open earlier on Sundays' });
      const duplicate = await buildSuggestion(ctx.db, business.id, { content: 'Open earlier on Sunday please' });
      const elsewhere = await buildSuggestion(ctx.db, business.id, { content: 'Sundays: open earlier' });
      await page.goto(`${served.base}/app/b/${business.id}/suggestions/${target.id}`);
      const duplicates = page.getByRole('region', { name: 'Likely duplicates' });
      await expect.poll(() => duplicates.textContent()).toContain('Open earlier on Sunday please');
      const meanwhile = await ctx
        .request()
        .post(`/api/v1/suggestions/${elsewhere.id}/merge`)
        .set('X-API-Key', key.key)
        .send({ source_ids: [duplicate.id] });
      expect(meanwhile.status).toBe(200);
      const answer = page.waitForResponse((res) => res.request().method() === 'POST');
      await duplicates
        .getByRole('listitem')
        .filter({ hasText: 'Open earlier on Sunday please' })
        .getByRole('button', { name: 'Merge into this one' })
        .click();
      expect((await answer).status()).toBe(409);
      await page.waitForLoadState();
      expect(await page.getByRole('region', { name: 'Likely duplicates' }).textContent()).toContain(
        'That suggestion is already merged into another one',
      );
      await check(page, 'a refused merge');
      await context.close();
    },
    120_000,
  );
});
