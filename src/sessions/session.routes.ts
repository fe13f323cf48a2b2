import { noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toCurrentSessionResponse, toLoginResponse } from './session.presenter.js';
import { currentSessionSchema, loginResponseSchema } from './session.responses.js';
import { loginBody } from './session.schemas.js';
import { describeSession, login, logout } from './session.service.js';

const common = { tag: 'Sessions' } as const;

/** /auth: dashboard users sign in for a 12-hour Bearer session token. */
export const sessionFeature: Feature = {
  tags: [{ name: 'Sessions', description: 'Dashboard users sign in for a 12-hour session token' }],
  routes: [
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/login',
      operationId: 'login',
      summary: 'Sign in',
      description:
        'A wrong email or password is a 401; repeated failures for one email are slowed down, and failed ' +
        'attempts count against the address’s limit.',
      guard: 'public',
      body: loginBody,
      responses: [{ status: 200, description: 'The session token', json: loginResponseSchema }],
      errors: [401],
      handler: async ({ body, services, db }) => {
        const { token, session, user } = await login(db, services.loginThrottle, body.email, body.password);
        return ok(toLoginResponse(token, session, user));
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/logout',
      operationId: 'logout',
      summary: 'Sign out: revoke the session token',
      guard: 'session',
      responses: [{ status: 204, description: 'Revoked' }],
      handler: async ({ principal: session, db }) => {
        await logout(db, session);
        return noContent();
      },
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/auth/me',
      operationId: 'getCurrentSession',
      summary: 'The signed-in user and their businesses',
      guard: 'session',
      responses: [{ status: 200, description: 'The session', json: currentSessionSchema }],
      handler: async ({ principal: session, db }) => {
        const { user, memberships } = await describeSession(db, session);
        return ok(toCurrentSessionResponse(session, user, memberships));
      },
    }),
  ],
};
