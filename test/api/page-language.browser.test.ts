import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { browserTitle, expectAccessible, hasChromium, PHONE, useBrowserServer } from '../support/browser.js';
import { buildQrCode, buildSuggestion, buildTenant } from '../support/factories.js';

/** The page in German and in Arabic (right to left): axe clean on a phone and a desktop, script on and off. */
const ctx = useTestApp();
const served = useBrowserServer(ctx);

/**
 * axe runs in the page, so for "JavaScript off" the page is checked as such a browser gets it: the
 * same address read where the page's own script is never loaded (axe is injected inline).
 */
async function expectAccessibleAsServed(url: string, javaScriptEnabled: boolean, state: string, locale?: string) {
  const context = await served.browser.newContext({ viewport: PHONE, bypassCSP: true, locale });
  if (!javaScriptEnabled) await context.route('**/*.js', (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  await expectAccessible(page, state);
  await context.close();
}

async function scene() {
  const t = await buildTenant(ctx.db);
  const qr = await buildQrCode(ctx.db, t.business.id);
  await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Mehr vegane Gerichte, bitte' });
  return `${served.base}/f/${qr.code}`;
}

describe.skipIf(!hasChromium)(browserTitle('the page in German and Arabic'), () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`When the page is read in German (JavaScript ${javaScriptEnabled ? 'on' : 'off'}), then it is German and accessible`, async () => {
      const url = await scene();
      const context = await served.browser.newContext({
        viewport: PHONE,
        javaScriptEnabled,
        bypassCSP: true,
        locale: 'de-DE',
      });
      const page = await context.newPage();
      await page.goto(url);
      expect(await page.getAttribute('html', 'lang')).toBe('de');
      await expect(page.getByRole('heading', { name: 'Feedback geben' }).count()).resolves.toBe(1);
      await context.close();
      await expectAccessibleAsServed(
        url,
        javaScriptEnabled,
        `German, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`,
        'de-DE',
      );
    }, 120_000);

    it(`When Arabic is chosen with the switch (JavaScript ${javaScriptEnabled ? 'on' : 'off'}), then the page is right to left, mirrored and accessible`, async () => {
      const url = await scene();
      const context = await served.browser.newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(url);
      await page.getByRole('link', { name: 'العربية' }).click();
      await page.waitForURL(/lang=ar/);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.getAttribute('html', 'lang')).toBe('ar');
      // Mirrored: the form's heading starts at the right edge of its section.
      const heading = await page.getByRole('heading', { name: 'شاركنا رأيك' }).boundingBox();
      const section = await page.locator('section.feedback').boundingBox();
      expect(heading!.x + heading!.width).toBeGreaterThan(section!.x + section!.width - 40);
      const chosen = page.url();
      await context.close();
      await expectAccessibleAsServed(
        chosen,
        javaScriptEnabled,
        `Arabic, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`,
      );
    }, 120_000);
  }
});
