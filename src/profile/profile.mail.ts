import { composeMessage } from '../mail/mail.message.js';
import { t } from '../shared/messages.js';

/** The message that confirms a new address: the change applies only once its link is followed. */
export function emailChangeMessage(m: { token: string; link: string | undefined; lifetimeMinutes: number }) {
  return composeMessage({
    subject: t('app.profile.mail.subject'),
    intro: [t('app.profile.mail.intro')],
    link: m.link ? { url: m.link, label: t('app.profile.mail.link') } : undefined,
    tokenLabel: t('app.profile.mail.token_label'),
    token: m.token,
    outro: [t('app.profile.mail.outro', { minutes: m.lifetimeMinutes })],
  });
}

/** The message that confirms a sign-up's address: the business is created once its link is followed. */
export function signUpMessage(m: { token: string; link: string | undefined; lifetimeMinutes: number }) {
  return composeMessage({
    subject: t('app.signup.mail.subject'),
    intro: [t('app.signup.mail.intro')],
    link: m.link ? { url: m.link, label: t('app.signup.mail.link') } : undefined,
    tokenLabel: t('app.signup.mail.token_label'),
    token: m.token,
    outro: [t('app.signup.mail.outro', { minutes: m.lifetimeMinutes })],
  });
}
