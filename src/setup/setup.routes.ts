import type pg from 'pg';
import { notFound } from '../errors/http-error.js';
import { accepted, created, noContent } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { startSession } from '../sessions/session.service.js';
import {
  type NewBusinessSession,
  newBusinessSessionSchema,
  setupBody,
  signUpBody,
  signUpConfirmBody,
} from './setup.schemas.js';
import { completeSetup, firstRunOver, needsSetup } from './setup.service.js';
import { confirmSignUp, requestSignUp } from './signup.service.js';

const common = { tag: 'First run and sign-up' } as const;

/** The owner of a business just made, signed in: what the first run and a confirmed sign-up answer. */
async function ownerSignedIn(
  db: pg.Pool,
  made: { business: { id: string; name: string }; owner: { id: string; email: string; name: string | null } },
): Promise<NewBusinessSession> {
  const { token, session } = await startSession(db, made.owner.id);
  return {
    business: { id: made.business.id, name: made.business.name },
    token,
    expires_at: session.expires_at.toISOString(),
    user: { id: made.owner.id, email: made.owner.email, name: made.owner.name },
  };
}

/**
 * /auth/setup and /auth/sign-up: a business and its owner made without an operator's CLI, by the
 * first run's one-time link (while no business exists) or, with SIGNUP=open, by anyone whose email
 * confirms it. What the dashboard's /app/setup and /app/sign-up pages run.
 */
export const setupFeature: Feature = {
  tags: [
    {
      name: 'First run and sign-up',
      description:
        'The first business and its owner, made with the one-time setup link; with `SIGNUP=open`, a business ' +
        'for anyone who confirms their email',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/auth/setup',
      operationId: 'getSetup',
      summary: 'Whether the first run is open',
      description: 'A 204 while no business exists, so the first run may make one; a 404 once one exists.',
      guard: 'public',
      responses: [{ status: 204, description: 'No business exists yet: the first run is open' }],
      errors: [404],
      handler: async ({ db }) => {
        if (!(await needsSetup(db))) throw firstRunOver();
        return noContent();
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/setup',
      operationId: 'completeSetup',
      summary: 'Make the first business and its owner',
      description:
        'With the one-time token of the setup link (`admin setup-link`, or the link start-up logs): the ' +
        'business and its owner, made as `admin business create` makes them, and a session for the owner. ' +
        'A missing, wrong, expired or used token is a 403 naming the `token` field; once a business ' +
        'exists, a 404. The token works once.',
      guard: 'public',
      body: setupBody,
      responses: [{ status: 201, description: 'Made; the owner is signed in', json: newBusinessSessionSchema }],
      errors: [403, 404, 409],
      handler: async ({ body, db }) => created(await ownerSignedIn(db, await completeSetup(db, body))),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/sign-up',
      operationId: 'requestSignUp',
      summary: 'Sign up: email a confirmation link',
      description:
        'Only with `SIGNUP=open` (else a 404). Nothing is made yet: a single-use link is emailed to the ' +
        'address, and following it (`confirmSignUp`) makes the business. Always a 202 with no body, whether ' +
        'or not the address has an account: the answer never tells.',
      guard: 'public',
      body: signUpBody,
      responses: [{ status: 202, description: 'Accepted: a message is on its way unless the email has an account' }],
      errors: [404],
      handler: async ({ body, services, db }) => {
        if (!services.signupOpen) throw notFound('Sign-up');
        await requestSignUp(db, services.mail, body, services.inviteLimits.perAddressPerDay);
        return accepted();
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/sign-up/confirm',
      operationId: 'confirmSignUp',
      summary: 'Confirm a sign-up: make the business and its owner',
      description:
        'Only with `SIGNUP=open` (else a 404). The token from the sign-up email makes the business and its ' +
        'owner (their address verified) and signs the owner in. An invalid, expired or used token is a 401 ' +
        'that counts against the address’s failure budget, like a failed sign-in.',
      guard: 'public',
      body: signUpConfirmBody,
      responses: [{ status: 201, description: 'Made; the owner is signed in', json: newBusinessSessionSchema }],
      errors: [401, 404],
      handler: async ({ body, services, db }) => {
        if (!services.signupOpen) throw notFound('Sign-up');
        return created(await ownerSignedIn(db, await confirmSignUp(db, body.token)));
      },
    }),
  ],
};
