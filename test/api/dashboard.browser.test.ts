import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger, useTestApp } from '../support/app.js';
import { buildOwnerWithPassword, PASSWORD } from '../support/dashboard.js';
import { SmtpPeer, type ReceivedMail } from '../support/mail.js';
import { buildIssue, buildSuggestion, uniqueEmail } from '../support/factories.js';
import { useReceivers } from '../support/receiver.js';
import { Webhook } from 'standardwebhooks';
import { WebhookWorker } from '../../src/webhooks/webhook.worker.js';
import {
  browserTitle,
  DESKTOP,
  expectAccessible,
  hasChromium,
  PHONE,
  SCREENSHOTS,
  useBrowserServer,
} from '../support/browser.js';

const ctx = useTestApp();
const startReceiver = useReceivers();

let peer: SmtpPeer;
const requested: string[] = [];

// Registered first, so the peer is up when the server below is configured with it.
beforeAll(async () => {
  if (hasChromium) peer = await SmtpPeer.start();
});
afterAll(async () => {
  await peer?.close();
});

/**
 * One server for the file whose mail goes to a real SMTP peer; DASHBOARD_URL is left to its default,
 * so the emails' links lead here.
 */
const served = useBrowserServer(ctx, () => ({
  SMTP_URL: peer.url,
  MAIL_FROM: 'Feedback <no-reply@feedback.test>',
  // The webhook receiver is on loopback.
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: true,
}));

/** A browser; axe is injected past the page's CSP (bypassCSP), which the pages themselves never need. */
async function open(javaScriptEnabled: boolean, viewport = PHONE): Promise<BrowserContext> {
  const context = await served.browser.newContext({ viewport, javaScriptEnabled, bypassCSP: true });
  context.on('request', (request) => requested.push(request.url()));
  return context;
}

const title = browserTitle;

/** The dashboard link a message carries: it must lead to this server, with the token in its fragment. */
function linkIn(message: ReceivedMail, page: 'accept-invite' | 'reset-password'): string {
  const match = new RegExp(`^(http\\S+/app/${page}#token=\\S+)$`, 'm').exec(message.text);
  if (!match) throw new Error(`no ${page} link in:\n${message.text}`);
  expect(match[1]!.startsWith(`${served.base}/app/${page}#token=`)).toBe(true);
  return match[1]!;
}

/** Opens an emailed link; without JavaScript, the token is pasted from the message, as its text says. */
async function openLink(page: Page, link: string, javaScript: boolean) {
  await page.goto(link);
  const field = page.locator('[data-fragment-token]');
  if (javaScript) {
    await expect.poll(() => field.isHidden()).toBe(true);
    expect(new URL(page.url()).hash).toBe('');
  } else {
    await page.getByLabel(/token/).fill(decodeURIComponent(link.split('#token=')[1]!));
  }
}

/** A new business, its owner signed in, on its home page. */
async function ownerSignedIn(javaScript: boolean, viewport = PHONE) {
  const owner = await buildOwnerWithPassword(ctx.db);
  const context = await open(javaScript, viewport);
  const page = await context.newPage();
  await page.goto(`${served.base}/app/sign-in`);
  await signIn(page, owner.email, PASSWORD);
  expect(new URL(page.url()).pathname).toBe(`/app/b/${owner.business.id}`);
  return { ...owner, context, page };
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

describe.each([
  ['on', true],
  ['off', false],
])('the dashboard in a browser, JavaScript %s', (_label, javaScript) => {
  const shoot = (page: Page, name: string) =>
    javaScript ? page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true }) : Promise.resolve();
  /** axe runs as a script: with JavaScript off the same pages were checked in the run with it on. */
  const check = (page: Page, state: string) => (javaScript ? expectAccessible(page, state) : Promise.resolve());

  it.skipIf(!hasChromium)(
    title('When an owner opens a page signed out, signs in, and signs out, then each step works and passes axe'),
    async () => {
      const { business, email } = await buildOwnerWithPassword(ctx.db, { name: 'Café Lune' });
      for (const status of ['pending', 'pending', 'in_progress', 'completed'] as const) {
        await buildSuggestion(ctx.db, business.id, { status });
      }
      await buildIssue(ctx.db, business.id);
      const context = await open(javaScript);
      const page = await context.newPage();
      await page.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await check(page, 'sign-in');

      await signIn(page, email, 'not my password at all');
      await expect(page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await check(page, 'sign-in refused');

      await signIn(page, email, PASSWORD);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${business.id}`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(business.name);
      await check(page, 'home');
      await shoot(page, 'dashboard-home');

      const [cookie] = (await context.cookies()).filter((c) => c.name === 'fb_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/app' });
      if (javaScript)
        await expect(
          page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
        ).resolves.not.toContain('fb_session');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/app\/sign-in\?signed_out=1$/);
      await expect(page.getByRole('status').textContent()).resolves.toContain('You are signed out.');
      await page.goto(`${served.base}/app/b/${business.id}`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await context.close();
      expect(requested.filter((address) => !address.startsWith(served.base))).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title('When an owner creates an API key in the page, then it lists suggestions, and is refused once revoked there'),
    async () => {
      const { business, email } = await buildOwnerWithPassword(ctx.db, { name: 'Café Lune' });
      const context = await open(javaScript, DESKTOP);
      if (javaScript) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.base });
      const page = await context.newPage();
      await page.goto(`${served.base}/app/sign-in`);
      await signIn(page, email, PASSWORD);
      await page.getByRole('link', { name: 'Integrations' }).click();
      await page.waitForURL(/\/integrations$/);
      await check(page, 'integrations');

      await page.getByLabel('Name').fill('Till sync');
      await page.getByLabel('Read: list and read').check();
      await page.getByRole('button', { name: 'Create the key' }).click();
      await page.waitForLoadState();
      const key = await page.getByLabel('The key (read access)').inputValue();
      expect(key).toMatch(/^fbk_/);
      await expect(page.getByText('it is shown only once').count()).resolves.toBe(1);
      if (javaScript) {
        await page.getByRole('button', { name: 'Copy the key' }).click();
        await expect.poll(() => page.locator('#new-key-copied').textContent()).toBe('Copied.');
        await expect(
          page.evaluate(() =>
            (
              globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
            ).navigator.clipboard.readText(),
          ),
        ).resolves.toBe(key);
      } else {
        await expect(page.getByRole('button', { name: 'Copy the key' }).isVisible()).resolves.toBe(false);
      }
      await check(page, 'key created');
      await shoot(page, 'dashboard-api-key');

      const suggestions = () => fetch(`${served.base}/api/v1/suggestions`, { headers: { 'X-API-Key': key } });
      expect((await suggestions()).status).toBe(200);

      await page.goto(`${served.base}/app/b/${business.id}/integrations`);
      await expect(page.locator('body').textContent()).resolves.not.toContain(key);
      await page.getByRole('link', { name: 'Revoke Till sync' }).click();
      await check(page, 'revoke confirmation');
      await page.getByRole('button', { name: 'Revoke the key' }).click();
      await page.waitForURL(/revoked=/);
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('is revoked');
      expect((await suggestions()).status).toBe(401);
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When an owner changes the settings and the locations in the page, then each change holds, as the API rules say',
    ),
    async () => {
      const { business, context, page } = await ownerSignedIn(javaScript);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL(/\/settings$/);
      await check(page, 'settings');

      await page.getByLabel('Name', { exact: true }).fill('Café Lune');
      await page.getByLabel('Approval required').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/saved=business/);
      await expect(page.getByRole('status').textContent()).resolves.toContain('The settings are saved.');
      await expect(page.getByLabel('Approval required').isChecked()).resolves.toBe(true);
      await expect(page.locator('.business-name').textContent()).resolves.toContain('Café Lune');

      await page.getByLabel('New location').fill('Terrace');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.waitForURL(/saved=location/);
      await page.getByLabel('New location').fill('terrace');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.waitForLoadState();
      await expect(page.getByLabel('New location').getAttribute('aria-invalid')).resolves.toBe('true');
      await check(page, 'settings, a name taken');
      await shoot(page, 'dashboard-settings');

      await page.getByLabel('Location name').fill('Garden');
      await page.getByRole('button', { name: 'Rename Terrace' }).click();
      await page.waitForURL(/saved=renamed/);
      await expect(page.getByLabel('Location name').inputValue()).resolves.toBe('Garden');

      await page.getByRole('link', { name: 'Delete Garden' }).click();
      await check(page, 'delete a location');
      await page.getByRole('button', { name: 'Delete the location' }).click();
      await page.waitForURL(/saved=deleted/);
      await expect(page.locator('main').textContent()).resolves.toContain('No locations yet.');
      const { rows } = await ctx.db.pool.query('SELECT name, approval_required FROM businesses WHERE id = $1', [
        business.id,
      ]);
      expect(rows[0]).toEqual({ name: 'Café Lune', approval_required: true });
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When an owner invites by email, then the link makes a new account a member; roles change and the member leaves',
    ),
    async () => {
      const { business, context, page } = await ownerSignedIn(javaScript);
      await page.getByRole('link', { name: 'Team' }).click();
      await page.waitForURL(/\/team$/);
      await check(page, 'team');

      const email = uniqueEmail('lea');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption('admin');
      await page.getByRole('button', { name: 'Send the invite' }).click();
      await page.waitForURL(/saved=invited/);
      const other = uniqueEmail('typo');
      await page.getByLabel('Email').fill(other);
      await page.getByRole('button', { name: 'Send the invite' }).click();
      await page.waitForURL(/saved=invited/);
      await page.getByRole('button', { name: `Cancel the invite of ${other}` }).click();
      await page.waitForURL(/saved=cancelled/);
      await expect(page.locator('main').textContent()).resolves.not.toContain(other);
      await expect
        .poll(async () => (await page.reload(), await page.locator('main').textContent()))
        .toContain('Email: sent');
      await check(page, 'team with an invite');
      await shoot(page, 'dashboard-team');

      const link = linkIn(await peer.waitFor(email), 'accept-invite');
      const invitee = await open(javaScript);
      const joining = await invitee.newPage();
      await openLink(joining, link, javaScript);
      await check(joining, 'accept an invite');
      await joining.getByLabel('Your name').fill('Léa Bernard');
      await joining.getByLabel('Choose a password').fill('short');
      await joining.getByRole('button', { name: 'Create the account and accept' }).click();
      await joining.waitForLoadState();
      await expect(joining.getByLabel('Choose a password').getAttribute('aria-invalid')).resolves.toBe('true');
      await check(joining, 'accept an invite, password refused');
      await joining.getByLabel('Choose a password').fill('violet lanterns drift upstream');
      await joining.getByRole('button', { name: 'Create the account and accept' }).click();
      await joining.waitForURL(`${served.base}/app/b/${business.id}`);
      await expect(joining.locator('.business-name').textContent()).resolves.toContain('(admin)');

      await page.goto(`${served.base}/app/b/${business.id}/team`);
      await page.getByLabel('Role of Léa Bernard').selectOption('member');
      await page.getByRole('button', { name: 'Change the role of Léa Bernard' }).click();
      await page.waitForURL(/saved=role/);

      await joining.goto(`${served.base}/app/b/${business.id}/team`);
      await expect(joining.getByRole('button', { name: /Send the invite/ }).count()).resolves.toBe(0);
      await joining.getByRole('link', { name: 'Leave the business' }).click();
      await check(joining, 'leave');
      await joining.getByRole('button', { name: 'Leave the business' }).click();
      await joining.waitForURL(`${served.base}/app`);
      await expect(joining.locator('main').textContent()).resolves.toContain('does not belong to any business');
      await page.reload();
      await expect(page.locator('main').textContent()).resolves.not.toContain('Léa Bernard');
      await invitee.close();
      await context.close();
    },
    90_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When someone with an account is invited, then they sign in on the invite page and join; the owner removes them',
    ),
    async () => {
      const existing = await buildOwnerWithPassword(ctx.db);
      const { business, context, page } = await ownerSignedIn(javaScript, DESKTOP);
      await page.goto(`${served.base}/app/b/${business.id}/team`);
      await page.getByLabel('Email').fill(existing.email);
      await page.getByRole('button', { name: 'Send the invite' }).click();
      await page.waitForURL(/saved=invited/);

      const link = linkIn(await peer.waitFor(existing.email), 'accept-invite');
      const invitee = await open(javaScript);
      const joining = await invitee.newPage();
      await openLink(joining, link, javaScript);
      await joining.getByRole('button', { name: 'I already have an account' }).click();
      await joining.waitForLoadState();
      await check(joining, 'accept an invite, signing in');
      await joining.getByLabel('Email').fill(existing.email);
      await joining.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await joining.getByRole('button', { name: 'Sign in and accept' }).click();
      await joining.waitForURL(`${served.base}/app/b/${business.id}`);
      await expect(joining.getByRole('link', { name: 'Switch business' }).count()).resolves.toBe(1);

      await page.reload();
      await page.getByRole('link', { name: `Remove ${existing.email}` }).click();
      await check(page, 'remove a member');
      await page.getByRole('button', { name: 'Remove the member' }).click();
      await page.waitForURL(/saved=removed/);
      expect((await joining.reload())?.status()).toBe(403);
      await invitee.close();
      await context.close();
    },
    90_000,
  );

  it.skipIf(!hasChromium)(
    title('When an owner forgets the password, then the emailed link sets a new one, which signs them in'),
    async () => {
      const owner = await buildOwnerWithPassword(ctx.db);
      const context = await open(javaScript);
      const page = await context.newPage();
      await page.goto(`${served.base}/app/sign-in`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await check(page, 'forgot password');
      await page.getByLabel('Email').fill(owner.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toContain('is on its way');
      await check(page, 'reset asked');

      const link = linkIn(await peer.waitFor(owner.email), 'reset-password');
      await openLink(page, link, javaScript);
      await check(page, 'reset password');
      const fresh = 'violet lanterns drift upstream';
      await page.getByLabel('New password').fill(fresh);
      await page.getByRole('button', { name: 'Set the password' }).click();
      // the reset ends every session of the account: the page says so and asks to sign in with it
      await page.waitForURL(/\/app\/sign-in/);
      await expect(page.getByRole('status').textContent()).resolves.toContain('Your new password is set');
      await signIn(page, owner.email, fresh);
      expect(new URL(page.url()).pathname).toBe(`/app/b/${owner.business.id}`);
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    title(
      'When an owner adds a webhook endpoint in the page, then a test event reaches it signed, and it can be rotated, disabled and deleted',
    ),
    async () => {
      const receiver = await startReceiver();
      const { business, context, page } = await ownerSignedIn(javaScript, DESKTOP);
      const worker = new WebhookWorker(ctx.db, capturingLogger().logger, {
        allowPrivateNetworks: true,
        businessIds: [business.id],
      });
      await page.getByRole('link', { name: 'Integrations' }).click();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.waitForURL(/\/integrations\/webhooks$/);
      await check(page, 'webhooks');

      await page.getByLabel('URL').fill(receiver.url);
      await page.getByLabel('Description').fill('Support desk');
      await page.getByLabel('All events, present and future').check();
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      await page.waitForLoadState();
      const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await check(page, 'endpoint created');
      await shoot(page, 'dashboard-webhook');

      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.waitForURL(/saved=test/);
      await worker.runDue();
      const got = await receiver.nth(1);
      const payload = new Webhook(secret).verify(got.body, got.headers) as { type: string };
      expect(payload.type).toBe('webhook.test');
      await page.reload();
      await expect(page.locator('main').textContent()).resolves.toMatch(
        /webhook\.test · succeeded · 1 attempt · HTTP 204/,
      );
      await check(page, 'endpoint with a delivery');

      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      await page.waitForLoadState();
      await expect(page.getByLabel('Signing secret', { exact: true }).inputValue()).resolves.not.toBe(secret);
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.waitForURL(/saved=disabled/);
      await expect(page.locator('main').textContent()).resolves.toMatch(/State\s*disabled/);
      await page.getByRole('link', { name: 'Delete' }).click();
      await check(page, 'delete an endpoint');
      await page.getByRole('button', { name: 'Delete the endpoint' }).click();
      await page.waitForURL(/saved=deleted/);
      await expect(page.locator('main').textContent()).resolves.toContain('No endpoints yet.');
      await context.close();
    },
    60_000,
  );
});
