import { accepted, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toCurrentSessionResponse } from '../sessions/session.presenter.js';
import { currentSessionSchema } from '../sessions/session.responses.js';
import { describeSession } from '../sessions/session.service.js';
import { toSessionListResponse } from './profile.presenter.js';
import { sessionListSchema } from './profile.responses.js';
import { emailChangeBody, emailConfirmBody, profileChangeBody } from './profile.schemas.js';
import { confirmEmailChange, endSession, listSessions, renameUser, requestEmailChange } from './profile.service.js';

const common = { tag: 'Profile' } as const;

/**
 * /auth/me...: the signed-in user's own profile (the dashboard's /app/profile runs these): their name,
 * their address (changed once the new one is confirmed), and their sessions. A password is changed by
 * POST /auth/password.
 */
export const profileFeature: Feature = {
  tags: [{ name: 'Profile', description: 'Your name, your email address and your sessions' }],
  routes: [
    defineRoute({
      ...common,
      method: 'patch',
      path: '/auth/me',
      operationId: 'updateProfile',
      summary: 'Change your name',
      guard: 'session',
      body: profileChangeBody,
      responses: [{ status: 200, description: 'The session, with the new name', json: currentSessionSchema }],
      handler: async ({ principal: session, body, db }) => {
        await renameUser(db, session, body.name);
        const { user, memberships } = await describeSession(db, session);
        return ok(toCurrentSessionResponse(session, user, memberships));
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/me/email',
      operationId: 'requestEmailChange',
      summary: 'Change your email address: a confirmation link goes to the new one',
      description:
        'The address changes only once the link (or its token, to POST /auth/email-confirm) is used, within ' +
        '24 hours; until then you sign in with the old one. An address another account has is a 409. As with ' +
        'invites, at most INVITES_PER_ADDRESS_PER_DAY messages a day go to one address; past that, nothing is sent.',
      guard: 'session',
      body: emailChangeBody,
      responses: [{ status: 202, description: 'A confirmation is on its way to the new address' }],
      errors: [409],
      handler: async ({ principal: session, body, services, db }) => {
        const perDay = services.inviteLimits.perAddressPerDay;
        await requestEmailChange(db, services.mail, session, body.email, perDay);
        return accepted();
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/email-confirm',
      operationId: 'confirmEmailChange',
      summary: 'Confirm a new email address with the emailed token',
      description:
        'The address becomes the account’s, verified. An invalid, expired or used token is a 401 that counts ' +
        'against the address’s failure budget, like a failed sign-in.',
      guard: 'public',
      body: emailConfirmBody,
      responses: [{ status: 204, description: 'The address is changed' }],
      errors: [401, 409],
      handler: async ({ body, db }) => {
        await confirmEmailChange(db, body.token);
        return noContent();
      },
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/auth/me/sessions',
      operationId: 'listMySessions',
      summary: 'Your live sessions: where and when each was last used',
      guard: 'session',
      responses: [{ status: 200, description: 'The sessions', json: sessionListSchema }],
      handler: async ({ principal: session, db }) => ok(toSessionListResponse(await listSessions(db, session))),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/auth/me/sessions/:session_id',
      operationId: 'endMySession',
      summary: 'Sign one of your sessions out',
      description: 'At once: its token is refused from the next request on. Your current session may be ended too.',
      guard: 'session',
      resource: 'Session',
      responses: [{ status: 204, description: 'Signed out' }],
      handler: async ({ principal: session, id, db }) => {
        await endSession(db, session, id);
        return noContent();
      },
    }),
  ],
};
