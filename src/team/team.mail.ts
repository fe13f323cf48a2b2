import { composeMessage } from '../mail/mail.message.js';
import type { Role } from '../shared/schemas.js';

const ARTICLE: Record<Role, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

/** The invite's message: who invites, to which business, with the token and the dashboard's link. */
export function inviteMessage(invite: {
  businessName: string;
  inviter: string | null;
  role: Role;
  token: string;
  link: string | undefined;
  expiresAt: Date;
}) {
  const who = invite.inviter ? `${invite.inviter} invited you` : 'You are invited';
  return composeMessage({
    subject: `Join ${invite.businessName} on Feedback`,
    intro: [`${who} to join ${invite.businessName} as ${ARTICLE[invite.role]}.`],
    link: invite.link ? { url: invite.link, label: 'Accept the invite' } : undefined,
    tokenLabel: invite.link
      ? 'Or accept it with this invite token (POST /invites/accept):'
      : 'Accept it with this invite token (POST /invites/accept):',
    token: invite.token,
    outro: [
      `The invite can be used once, until ${invite.expiresAt.toISOString()}. If you already have an account, ` +
        'sign in first and accept while signed in.',
      'If you did not expect this message, ignore it: nothing happens unless the invite is accepted.',
    ],
  });
}
