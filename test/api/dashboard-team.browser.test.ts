import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { uniqueEmail } from '../support/factories.js';
import {
  browserTitle,
  expectAccessible,
  hasChromium,
  ownerSignedIn,
  PHONE,
  useBrowserServer,
} from '../support/browser.js';

/** Issue 40's team forms as a person meets them: invite, accept the invite, sign in with the new account. */
const ctx = useTestApp();
const served = useBrowserServer(ctx);

async function press(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.waitForLoadState();
}

describe.each([
  ['on', true],
  ['off', false],
])('the team forms in a browser, JavaScript %s', (_label, javaScript) => {
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    browserTitle('When the owner invites, then the invitee accepts with a new account and signs in with it'),
    async () => {
      const { business, context, page } = await ownerSignedIn(ctx, served, javaScript);
      await page.goto(`${served.base}/app/b/${business.id}/team`);
      await check(page, 'the team page');
      const email = uniqueEmail('lea');
      await page.getByLabel('Email').fill('lea at example');
      await press(page, 'Send the invite');
      expect(await page.locator('#invite-email-error').textContent()).toBe('The email does not look right.');
      await check(page, 'an invite with a malformed email');
      await page.getByLabel('Email').fill(email);
      await press(page, 'Send the invite');
      // Development mail mode: the page shows the link the email would carry.
      const link = await page.locator('#dev-link').inputValue();
      expect(link).toMatch(/\/app\/accept-invite#token=fbi_/);
      await page.getByLabel('Email').fill(email);
      await press(page, 'Send the invite');
      expect(await page.locator('#invite-email-error').textContent()).toBe(
        'This address already has a pending invite: cancel it to invite again.',
      );

      const invitee = await served.browser.newContext({
        viewport: PHONE,
        javaScriptEnabled: javaScript,
        bypassCSP: true,
      });
      const guest = await invitee.newPage();
      await guest.goto(new URL(link, served.base).toString());
      const token = new URL(link, served.base).hash.slice('#token='.length);
      // Without JavaScript the fragment stays in the address: the person pastes the code from the email.
      if (!javaScript) await guest.getByLabel('Invite token').fill(token);
      await guest.getByLabel('Your name').fill('Léa Bernard');
      await guest.getByLabel('Choose a password').fill('short');
      await press(guest, 'Create the account and accept');
      expect(await guest.locator('#password-error').textContent()).toBe('The password must be at least 12 characters.');
      await check(guest, 'accepting an invite, the password too short');
      if (!javaScript) await guest.getByLabel('Invite token').fill(token);
      await guest.getByLabel('Choose a password').fill('violet lanterns drift upstream');
      await press(guest, 'Create the account and accept');
      expect(new URL(guest.url()).pathname).toBe(`/app/b/${business.id}`);

      await press(guest, 'Sign out');
      expect(new URL(guest.url()).pathname).toBe('/app/sign-in');
      await guest.getByLabel('Email').fill(email);
      await guest.getByLabel('Password', { exact: true }).fill('not the password at all');
      await press(guest, 'Sign in');
      expect(await guest.locator('#password-error').textContent()).toBe('The email or the password is not right.');
      await check(guest, 'signing in, the password wrong');
      await guest.getByLabel('Password', { exact: true }).fill('violet lanterns drift upstream');
      await press(guest, 'Sign in');
      expect(new URL(guest.url()).pathname).toBe(`/app/b/${business.id}`);
      await invitee.close();
      await context.close();
    },
    180_000,
  );
});
