import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Config } from '../../src/config/config.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { capturingLogger, type TestContext } from './app.js';
import { buildOwnerWithPassword, PASSWORD } from './dashboard.js';

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

/** Screenshots: to test/artifacts (git-ignored), or to docs/images with UPDATE_SCREENSHOTS=1. */
export const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/images/' : '../artifacts/', import.meta.url),
);

export interface BrowserServer {
  /** The server's address, which is also its PUBLIC_BASE_URL. */
  base: string;
  browser: Browser;
  app: Express;
}

/**
 * One server for the file, on a real port, whose PUBLIC_BASE_URL is its own address (so the links it
 * writes lead back to it), with `config(base)` besides, and Chromium; both closed after the file.
 * Its fields are set once the file's hooks have run.
 */
export function useBrowserServer(ctx: TestContext, config: (base: string) => Partial<Config> = () => ({})) {
  const served = {} as BrowserServer;
  const { logger } = capturingLogger();
  const limiters = createRateLimiters({ limit: 100_000, failedAuthLimit: 100_000, logger });
  const server = createServer((req, res) => served.app(req, res));
  beforeAll(async () => {
    if (!hasChromium) return;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    served.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settings = { PUBLIC_BASE_URL: served.base, ...config(served.base) };
    served.app = createApp({ db: ctx.db, logger, rateLimiters: limiters, config: settings });
    served.browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await limiters.close();
    if (!hasChromium) return;
    await served.browser.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return served;
}

/**
 * A new business, its owner signed in through the sign-in page of `served` on a phone-sized page,
 * landed on its home (the inbox).
 */
export async function ownerSignedIn(ctx: TestContext, served: BrowserServer, javaScriptEnabled: boolean) {
  const owner = await buildOwnerWithPassword(ctx.db);
  const context = await served.browser.newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${served.base}/app/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
  expect(new URL(page.url()).pathname).toBe(`/app/b/${owner.business.id}`);
  return { ...owner, context, page };
}
