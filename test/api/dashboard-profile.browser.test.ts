import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import {
  browserTitle,
  expectAccessible,
  hasChromium,
  ownerSignedIn,
  PHONE,
  useBrowserServer,
} from '../support/browser.js';
import { PASSWORD } from '../support/dashboard.js';

/** Issue 44's profile as a person meets it: the name, the password, and the sessions signed in elsewhere. */
const ctx = useTestApp();
const served = useBrowserServer(ctx);
const SLOW_MS = 240_000;
const NEW_PASSWORD = 'copper kettles hum at dawn';

async function press(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.waitForLoadState();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${served.base}/app/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await press(page, 'Sign in');
}

describe.each([
  ['on', true],
  ['off', false],
])('the profile in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle('When the name is changed, then the page and the header show the new one'),
    async () => {
      const { context, page } = await ownerSignedIn(ctx, served, javaScript);
      await page.goto(`${served.base}/app/profile`);
      await check(page, 'the profile');
      await page.getByLabel('Your name').fill('Mira Okafor');
      await press(page, 'Save the name');
      expect(new URL(page.url()).pathname).toBe('/app/profile');
      expect(await page.getByRole('status').textContent()).toBe('Your name is saved.');
      expect(await page.getByLabel('Your name').inputValue()).toBe('Mira Okafor');
      expect(await page.locator('a.who').textContent()).toBe('Mira Okafor');
      await check(page, 'the profile, the name saved');
      await context.close();
    },
    SLOW_MS,
  );

  it.skipIf(!hasChromium)(
    browserTitle('When a second browser signs in, then it is listed, and signing it out sends it to the sign-in page'),
    async () => {
      const { business, email, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const other = await served.browser.newContext({
        viewport: PHONE,
        javaScriptEnabled: javaScript,
        bypassCSP: true,
      });
      const elsewhere = await other.newPage();
      await signIn(elsewhere, email, PASSWORD);
      expect(new URL(elsewhere.url()).pathname).toBe(`/app/b/${business.id}`);

      await page.goto(`${served.base}/app/profile`);
      const sessions = page.locator('ul.sessions > li');
      expect(await sessions.count()).toBe(2);
      expect(await sessions.filter({ hasText: '(this browser)' }).count()).toBe(1);
      const signOut = page.locator('ul.sessions button');
      expect(await signOut.count()).toBe(1);
      await check(page, 'the profile, two sessions');
      await signOut.click();
      await page.waitForLoadState();
      expect(await page.getByRole('status').textContent()).toBe('That session is signed out.');
      expect(await sessions.count()).toBe(1);
      await check(page, 'the profile, the other session signed out');

      await elsewhere.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(elsewhere.url()).pathname).toBe('/app/sign-in');
      // This browser stays signed in.
      await page.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}`);
      await other.close();
      await context.close();
    },
    SLOW_MS,
  );

  it.skipIf(!hasChromium)(
    browserTitle(
      'When the password is changed, then a wrong current one is marked, other browsers are signed out and the new one signs in',
    ),
    async () => {
      const { business, email, context, page } = await ownerSignedIn(ctx, served, javaScript);
      const other = await served.browser.newContext({
        viewport: PHONE,
        javaScriptEnabled: javaScript,
        bypassCSP: true,
      });
      const elsewhere = await other.newPage();
      await signIn(elsewhere, email, PASSWORD);
      expect(new URL(elsewhere.url()).pathname).toBe(`/app/b/${business.id}`);
      await page.goto(`${served.base}/app/profile`);
      await page.getByLabel('Current password').fill('not the password at all');
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await press(page, 'Change the password');
      const current = page.getByLabel('Current password');
      expect(await page.locator('#current_password-error').textContent()).toBe('This is not your current password.');
      expect(await current.getAttribute('aria-invalid')).toBe('true');
      await check(page, 'the profile, the current password wrong');

      await current.fill(PASSWORD);
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await press(page, 'Change the password');
      expect(await page.getByRole('status').textContent()).toBe(
        'Your password is changed, and your other sessions are signed out.',
      );
      expect(await page.locator('#current_password-error').count()).toBe(0);
      await check(page, 'the profile, the password changed');
      // The other browser is signed out; this one is not.
      await elsewhere.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(elsewhere.url()).pathname).toBe('/app/sign-in');
      await other.close();
      await page.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}`);

      await press(page, 'Sign out');
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await signIn(page, email, PASSWORD);
      expect(await page.locator('#password-error').textContent()).toBe('The email or the password is not right.');
      await signIn(page, email, NEW_PASSWORD);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}`);
      await context.close();
    },
    SLOW_MS,
  );
});
