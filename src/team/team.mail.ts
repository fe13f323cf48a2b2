import { composeMessage } from '../mail/mail.message.js';
import { messagesFor } from '../shared/messages.js';
import type { Role } from '../shared/schemas.js';

/**
 * The invite's message, written for a person (`mail.staff.invite.*`): who invites, by name and address,
 * to which business and role, the link, and until when it works, as the reader writes a date and time.
 */
export function inviteMessage(invite: {
  businessName: string;
  inviter: { name: string | null; email: string } | null;
  role: Role;
  token: string;
  link: string | undefined;
  expiresAt: Date;
  locale?: string;
}) {
  const { t, date } = messagesFor(invite.locale);
  const business = invite.businessName;
  const role = t(`mail.staff.role.${invite.role}`);
  const inviter = invite.inviter;
  const intro = !inviter
    ? t('mail.staff.invite.intro_anonymous', { business, role })
    : inviter.name
      ? t('mail.staff.invite.intro', { name: inviter.name, email: inviter.email, business, role })
      : t('mail.staff.invite.intro_address', { email: inviter.email, business, role });
  const expires = date(invite.expiresAt, { dateStyle: 'long', timeStyle: 'short' });
  return composeMessage({
    subject: t('mail.staff.invite.subject', { business }),
    intro: [intro],
    link: invite.link ? { url: invite.link, label: t('mail.staff.invite.button') } : undefined,
    tokenLabel: t(invite.link ? 'mail.staff.invite.token_or' : 'mail.staff.invite.token'),
    token: invite.token,
    outro: [t('mail.staff.invite.expires', { expires }), t('mail.staff.invite.unexpected')],
  });
}
