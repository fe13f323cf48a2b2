import { composeMessage } from '../mail/mail.message.js';
import { messagesFor } from '../shared/messages.js';

/** The password-reset message, written for a person (`mail.staff.reset.*`): the link, how long it works, and what to do if it was not asked for. */
export function passwordResetMessage(reset: {
  token: string;
  link: string | undefined;
  lifetimeMinutes: number;
  locale?: string;
}) {
  const { t } = messagesFor(reset.locale);
  return composeMessage({
    subject: t('mail.staff.reset.subject'),
    intro: [t('mail.staff.reset.intro')],
    link: reset.link ? { url: reset.link, label: t('mail.staff.reset.button') } : undefined,
    tokenLabel: t(reset.link ? 'mail.staff.reset.token_or' : 'mail.staff.reset.token'),
    token: reset.token,
    outro: [t('mail.staff.reset.expires', { minutes: reset.lifetimeMinutes }), t('mail.staff.reset.unexpected')],
  });
}
