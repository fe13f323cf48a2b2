import type pg from 'pg';
import { createBusiness } from '../businesses/business.service.js';
import { inTransaction } from '../db/database.js';
import { HttpError, notFound } from '../errors/http-error.js';
import { sha256 } from '../shared/digest.js';
import { newId } from '../shared/ids.js';
import { isRandomToken, randomToken } from '../shared/random.js';
import { hashPassword } from '../users/password.js';
import { findUserByEmail } from '../users/user.repository.js';
import { emailTaken } from '../profile/profile.service.js';
import {
  anyBusinessExists,
  consumeSetupToken,
  findLiveSetupToken,
  insertSetupToken,
  lockFirstRun,
} from './setup.repository.js';
import type { SetupBody } from './setup.schemas.js';

/** A setup link works for a day: long enough to come back to, short enough not to linger in a log. */
export const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60_000;
const SETUP_PREFIX = 'fbu_';

/** Once a business exists, the first run is over: its page is a 404, GET and POST alike. */
export const firstRunOver = () => notFound('Page');

/** A post without the setup link's token, or with a dead one: the token field is marked. */
export const invalidSetupToken = () =>
  new HttpError(403, 'The setup link is missing, wrong, expired or used', 'INVALID_SETUP_TOKEN', {}, [
    { field: 'token', code: 'invalid_setup_token', message: 'is missing, wrong, expired or already used' },
  ]);

/** Whether the installation still waits for its first business. */
export const needsSetup = async (pool: pg.Pool) => !(await anyBusinessExists(pool));

/** Whether a setup token is well formed, unused and unexpired. */
export async function isLiveSetupToken(pool: pg.Pool, token: string): Promise<boolean> {
  return isRandomToken(SETUP_PREFIX, token) && findLiveSetupToken(pool, sha256(token));
}

/**
 * A new one-time link to /app/setup (`<dashboard>/setup#token=…`: the token in the fragment never
 * reaches a server's log), or null once a business exists. Each call makes a new token; the
 * database keeps its digest, and it works once, within SETUP_LINK_LIFETIME_MS.
 */
export async function issueSetupLink(pool: pg.Pool, dashboardBase: string): Promise<string | null> {
  if (!(await needsSetup(pool))) return null;
  const token = randomToken(SETUP_PREFIX);
  await insertSetupToken(pool, { id: newId(), digest: sha256(token), lifetimeMs: SETUP_LINK_LIFETIME_MS });
  return `${dashboardBase.replace(/\/+$/, '')}/setup#token=${encodeURIComponent(token)}`;
}

/**
 * The first run: the business and its owner, created as `admin business create` creates them, in
 * one transaction that also uses the token up. Two posts at once queue on the first run's lock; the
 * second finds the business and is the 404. The token is checked before argon2 runs.
 */
export async function completeSetup(pool: pg.Pool, input: SetupBody) {
  if (!(await needsSetup(pool))) throw firstRunOver();
  if (!(await isLiveSetupToken(pool, input.token))) throw invalidSetupToken();
  const passwordHash = await hashPassword(input.password);
  return inTransaction(pool, async () => {
    await lockFirstRun(pool);
    if (await anyBusinessExists(pool)) throw firstRunOver();
    if (!(await consumeSetupToken(pool, sha256(input.token)))) throw invalidSetupToken();
    if (await findUserByEmail(pool, input.email)) throw emailTaken();
    return createBusiness(pool, {
      name: input.business_name,
      plan: 'business',
      ownerEmail: input.email,
      ownerName: input.name,
      ownerPasswordHash: passwordHash,
      ownerEmailVerified: false,
    });
  });
}
