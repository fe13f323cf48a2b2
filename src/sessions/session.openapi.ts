import type { Feature } from '../openapi/operation.js';
import { loginBody } from './auth.routes.js';
import { currentSessionSchema, loginResponseSchema } from './session.responses.js';

export const sessionDocs: Feature = {
  tags: [{ name: 'Sessions', description: 'Dashboard users sign in for a 12-hour session token' }],
  operations: [
    {
      method: 'post',
      path: '/auth/login',
      operationId: 'login',
      summary: 'Sign in',
      description:
        'A wrong email or password is a 401; repeated failures for one email are slowed down, and failed ' +
        'attempts count against the address’s limit.',
      tag: 'Sessions',
      guard: 'public',
      body: loginBody,
      responses: [{ status: 200, description: 'The session token', json: loginResponseSchema }],
      errors: [401],
    },
    {
      method: 'post',
      path: '/auth/logout',
      operationId: 'logout',
      summary: 'Sign out: revoke the session token',
      tag: 'Sessions',
      guard: 'session',
      responses: [{ status: 204, description: 'Revoked' }],
    },
    {
      method: 'get',
      path: '/auth/me',
      operationId: 'getCurrentSession',
      summary: 'The signed-in user and their businesses',
      tag: 'Sessions',
      guard: 'session',
      responses: [{ status: 200, description: 'The session', json: currentSessionSchema }],
    },
  ],
};
