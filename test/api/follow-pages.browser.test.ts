import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { followLinks } from '../../src/follows/follow.mail.js';
import { useTestApp } from '../support/app.js';
import { browserTitle, DESKTOP, hasChromium, PHONE, useBrowserServer } from '../support/browser.js';
import { buildQrCode, buildSuggestion, buildTenant } from '../support/factories.js';

/**
 * The public page's buttons and the follow confirmation page, in a browser with JavaScript on and
 * off: one look for every acting button, the confirm page naming the business and the suggestion,
 * and no axe violation at a phone's and a desktop's size.
 */
const ctx = useTestApp();
const served = useBrowserServer(ctx);
const title = browserTitle;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations at both sizes. With JavaScript off a page cannot run axe, so the same address
 * is opened in a context where only the page's own script is blocked: the document is the one a
 * browser without JavaScript gets.
 */
async function violations(url: string, javaScript: boolean): Promise<string[]> {
  const context = await served.browser.newContext({ viewport: PHONE, bypassCSP: true });
  const page = await context.newPage();
  if (!javaScript) await page.route(/\/assets\/page\.[0-9a-f]+\.js$/, (route) => route.abort());
  await page.goto(url);
  const found: string[] = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.addScriptTag({ content: AXE });
    const ids = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string }[] }> } }).axe;
      return (await axe.run()).violations.map((v) => v.id);
    });
    found.push(...ids.map((id) => `${id} at ${size.width}x${size.height}`));
  }
  await context.close();
  return found;
}

/** What makes a button look like one of the page's: the computed styles that carry it. */
const look = (page: Page, selector: string) =>
  page.locator(selector).evaluate((button) => {
    const view = globalThis as unknown as { getComputedStyle: (node: unknown) => Record<string, string> };
    const style = view.getComputedStyle(button);
    return {
      background: style.backgroundColor,
      color: style.color,
      radius: style.borderRadius,
      weight: style.fontWeight,
      padding: style.paddingTop,
      border: style.borderTopStyle,
    };
  });

async function scene() {
  const t = await buildTenant(ctx.db);
  await ctx.db.pool.query('UPDATE businesses SET name = $2 WHERE id = $1', [t.business.id, 'Café <Ana> & Sons']);
  const qr = await buildQrCode(ctx.db, t.business.id);
  const s = await buildSuggestion(ctx.db, t.business.id, {
    visibility: 'public',
    content: 'Oat milk <b>please</b> for the flat whites',
  });
  return { t, qr, s, url: `${served.base}/f/${qr.code}` };
}

describe.each([
  ['on', true],
  ['off', false],
])('The follow buttons and the confirm page, JavaScript %s', (_label, javaScript) => {
  it.skipIf(!hasChromium)(
    title(
      'When a customer follows and opens the confirmation link, then every button looks like Send feedback, the confirm page names the business and the suggestion, and axe finds nothing',
    ),
    async () => {
      const { t, s, url } = await scene();
      expect(await violations(url, javaScript)).toEqual([]);

      const context = await served.browser.newContext({ viewport: PHONE, javaScriptEnabled: javaScript });
      const page = await context.newPage();
      await page.goto(url);
      const send = await look(page, 'form.post button');
      expect(send.background).toBe('rgb(11, 87, 164)');
      expect(send.color).toBe('rgb(255, 255, 255)');
      const item = page.locator(`#items #s-${s.id}`);
      await item.getByText('Email me when this moves').click();
      expect(await look(page, `#items #s-${s.id} details.follow button`)).toEqual(send);
      const email = `follower-${s.id}@example.test`;
      await item.getByLabel('Your email').fill(email);
      await Promise.all([page.waitForURL(/followed=1/), item.getByRole('button', { name: 'Follow' }).click()]);

      const { rows } = await ctx.db.pool.query(
        'SELECT id, email, link_key FROM suggestion_follows WHERE business_id = $1 AND suggestion_id = $2',
        [t.business.id, s.id],
      );
      expect(rows).toHaveLength(1);
      const confirm = followLinks(served.base, rows[0]).confirm;
      expect(await violations(confirm, javaScript)).toEqual([]);

      await page.goto(confirm);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Follow a suggestion to Café <Ana> & Sons',
      );
      await expect(page.locator('blockquote').textContent()).resolves.toBe(
        'Oat milk <b>please</b> for the flat whites',
      );
      const button = page.getByRole('button', { name: 'Confirm and follow' });
      expect(await look(page, '.follow-action button')).toEqual(send);
      await Promise.all([page.waitForLoadState(), button.click()]);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'You are following this suggestion',
      );
      await expect(page.locator('main').textContent()).resolves.toContain('Café <Ana> & Sons will email you');
      const confirmed = await ctx.db.pool.query('SELECT confirmed_at FROM suggestion_follows WHERE id = $1', [
        rows[0].id,
      ]);
      expect(confirmed.rows[0].confirmed_at).not.toBeNull();
      await context.close();
    },
    120_000,
  );
});
