import { accepted, noContent } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { passwordChangeBody, passwordResetBody, passwordResetConfirmBody } from './account.schemas.js';
import { changePassword, confirmPasswordReset, requestPasswordReset } from './account.service.js';

const common = { tag: 'Passwords' } as const;

/** /auth/password...: a forgotten password is reset by email; a known one is changed while signed in. */
export const accountFeature: Feature = {
  tags: [
    {
      name: 'Passwords',
      description: 'Reset a forgotten password through the email address, or change it while signed in',
    },
  ],
  routes: [
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/password-reset',
      operationId: 'requestPasswordReset',
      summary: 'Email a password-reset token',
      description:
        'Always a 202 with no body, in the same time, whether or not the email has an account: the answer ' +
        'never tells. When it has one, a single-use token valid for 30 minutes is emailed to it (with a link ' +
        'to the dashboard’s `/reset-password` page, at `DASHBOARD_URL`). At most three live tokens per account: ' +
        'further requests send nothing until one is used or expires.',
      guard: 'public',
      body: passwordResetBody,
      responses: [{ status: 202, description: 'Accepted: a message is on its way if the email has an account' }],
      handler: async ({ body, services, db }) => {
        await requestPasswordReset(db, services.mail, body.email);
        return accepted();
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/password-reset/confirm',
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with a reset token',
      description:
        'Sets the password, marks the email verified, and signs the account out everywhere: every session ' +
        'ends, and every other reset token stops working. An invalid, expired or used token is a 401 that ' +
        'counts against the address’s failure budget, like a failed sign-in.',
      guard: 'public',
      body: passwordResetConfirmBody,
      responses: [{ status: 204, description: 'The password is set; sign in with it' }],
      errors: [401],
      handler: async ({ body, db }) => {
        await confirmPasswordReset(db, body);
        return noContent();
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/auth/password',
      operationId: 'changePassword',
      summary: 'Change your password',
      description:
        'Needs the current password (a wrong one is a 401, slowed down and counted like a failed sign-in). ' +
        'Every other session of the user ends; this one stays.',
      guard: 'session',
      body: passwordChangeBody,
      responses: [{ status: 204, description: 'Changed' }],
      handler: async ({ principal: session, body, services, db }) => {
        await changePassword(db, services.loginThrottle, session, body);
        return noContent();
      },
    }),
  ],
};
