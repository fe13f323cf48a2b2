import { composeMessage } from '../mail/mail.message.js';

/** The password-reset message: the token, the dashboard's link, and what to do if it was not asked for. */
export function passwordResetMessage(reset: { token: string; link: string | undefined; lifetimeMinutes: number }) {
  return composeMessage({
    subject: 'Reset your Feedback password',
    intro: ['Someone (hopefully you) asked to reset the password of the Feedback account with this email address.'],
    link: reset.link ? { url: reset.link, label: 'Choose a new password' } : undefined,
    tokenLabel: reset.link
      ? 'Or use this reset token (POST /auth/password-reset/confirm):'
      : 'Use this reset token (POST /auth/password-reset/confirm):',
    token: reset.token,
    outro: [
      `It works once, within ${reset.lifetimeMinutes} minutes. Setting a new password signs the account out everywhere.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
  });
}
