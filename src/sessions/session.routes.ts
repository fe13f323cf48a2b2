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
      handler: async ({ res, body, services }) => {
        const { token, session, user } = await login(
          services.db.pool,
          services.loginThrottle,
          body.email,
          body.password,
        );
        res.json(toLoginResponse(token, session, user));
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
      handler: async ({ res, principal: session, services }) => {
        await logout(services.db.pool, session);
        res.status(204).end();
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
      handler: async ({ res, principal: session, services }) => {
        const { user, memberships } = await describeSession(services.db.pool, session);
        res.json(toCurrentSessionResponse(session, user, memberships));
      },
    }),
  ],
};
