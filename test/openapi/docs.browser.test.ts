import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

/** Debian's package; playwright-core never downloads a browser. `.ci/run` installs it when missing. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core on the page as it stands: no serious or critical violation. Evaluated through the browser's
 * protocol, which the page's CSP does not govern, so the page is checked under its own policy.
 */
async function expectAccessible(page: Page, state: string) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.slice(0, 3).map((node) => node.target.join(' ')),
      count: nodes.length,
    }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    state,
  ).toEqual([]);
}

const title =
  'When /docs is opened in Chromium, then the suggestions operations render from this server alone, a call can be tried, and axe finds no serious violation';

describe('the API reference in a real browser', () => {
  it.skipIf(!hasChromium)(
    hasChromium ? title : `${title} (skipped: no Chromium at ${CHROMIUM}; apt-get install -y chromium)`,
    async () => {
      const t = await buildTenant(ctx.db);
      const server: Server = ctx.app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A fresh profile each run: no cache, no stored key, nothing from another run.
      const profile = mkdtempSync(join(tmpdir(), 'fbk-chromium-'));
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
        viewport: { width: 1280, height: 900 },
      });
      onTestFinished(async () => {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });

      const requested: string[] = [];
      const problems: string[] = [];
      browser.on('request', (request) => requested.push(request.url()));
      const page = browser.pages()[0] ?? (await browser.newPage());
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      await page.goto(`${base}/docs`);
      const list = page.locator('#operations-Suggestions-listSuggestions');
      await list.waitFor({ state: 'visible', timeout: 15_000 });
      for (const operationId of ['getSuggestion', 'createSuggestion', 'updateSuggestion', 'addSuggestionComment']) {
        await expect(page.locator(`#operations-Suggestions-${operationId}`).isVisible()).resolves.toBe(true);
      }
      await expect(page.locator('#operations-tag-Suggestions').isVisible()).resolves.toBe(true);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'docs.png') });
      await expectAccessible(page, 'the reference as it opens');

      // A reader's key, entered once under Authorize, then a real call from the page.
      await page.locator('.auth-wrapper .authorize').click();
      await expectAccessible(page, 'the Authorize dialog');
      const keyForm = page.locator('.auth-container').filter({ hasText: 'ApiKeyHeader' });
      await keyForm.locator('input').fill(t.read);
      await keyForm.locator('button.authorize').click();
      await page.locator('.dialog-ux .close-modal').click();
      await list.locator('.opblock-summary').first().click();
      // The summaries hold no link (a control inside a control), yet the address follows the open operation.
      await expect.poll(() => new URL(page.url()).hash).toBe('#/Suggestions/listSuggestions');
      await list.getByRole('button', { name: 'Execute' }).click();
      const status = list.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ state: 'visible', timeout: 10_000 });
      await expect(status.innerText()).resolves.toMatch(/^200/);

      await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });
      await page.locator('#operations-Suggestions-createSuggestion .opblock-summary').click();
      await page.locator('#operations-Suggestions-createSuggestion textarea').waitFor({ state: 'visible' });
      await expectAccessible(page, 'a call tried, and a POST open with its body editor');

      const outside = requested.filter((url) => {
        const { protocol, hostname } = new URL(url);
        return !['data:', 'blob:'].includes(protocol) && !LOOPBACK.has(hostname);
      });
      expect(outside).toEqual([]);
      expect(requested).toContain(`${base}/api/v1/openapi.json`);
      expect(requested.some((url) => url.startsWith(`${base}/api/v1/suggestions`))).toBe(true);
      expect(problems).toEqual([]);
    },
    // Launching Chromium and rendering Swagger UI: up to 18 s measured on a loaded 2-core machine.
    60_000,
  );
});
