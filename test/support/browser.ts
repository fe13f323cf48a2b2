import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the browser tests share: Debian's Chromium (playwright-core never downloads a browser), the
 * two screen sizes pages are checked at, and axe-core.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** A test's title, saying why it is skipped where Chromium is missing. */
export const browserTitle = (text: string) => (hasChromium ? text : `${text} (skipped: no Chromium at ${CHROMIUM})`);

/** Headless, without the background requests this machine's closed network refuses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Violation {
  id: string;
  impact: string;
  targets: unknown[];
}

/** axe-core's violations on the page as it stands (injected past the CSP: contexts use bypassCSP). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  });
}

/** No axe violation at all, on a phone and on a desktop; the page's own size is restored after. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const viewport = page.viewportSize();
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${state} at ${size.width}x${size.height}`).toEqual([]);
  }
  if (viewport) await page.setViewportSize(viewport);
}
