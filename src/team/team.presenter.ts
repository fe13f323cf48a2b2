import type { MemberRow, UserRow } from '../users/user.repository.js';
import type { InviteRow, PendingInviteRow } from './team.repository.js';
import type { AcceptedInvite, CreatedInvite, Team, TeamInvite, TeamMember } from './team.responses.js';

export const toTeamMember = (member: MemberRow): TeamMember => ({
  user_id: member.id,
  name: member.name,
  email: member.email,
  role: member.role,
  joined_at: member.joined_at.toISOString(),
});

/** An open invite always has its message; one without is reported as not delivered. */
export const toTeamInvite = (invite: PendingInviteRow): TeamInvite => ({
  id: invite.id,
  email: invite.email,
  role: invite.role,
  delivery: invite.delivery ?? 'failed',
  created_at: invite.created_at.toISOString(),
  expires_at: invite.expires_at.toISOString(),
});

export const toTeamResponse = (team: { members: MemberRow[]; invites: PendingInviteRow[] }): Team => ({
  members: team.members.map(toTeamMember),
  invites: team.invites.map(toTeamInvite),
});

/** The token only in development mail mode: with SMTP it goes to the invitee's email alone. */
export const toCreatedInviteResponse = (invite: InviteRow, token: string | undefined): CreatedInvite => ({
  ...toTeamInvite({ ...invite, delivery: 'pending' }),
  ...(token === undefined ? {} : { token }),
});

export const toAcceptedInviteResponse = (user: UserRow, invite: InviteRow): AcceptedInvite => ({
  user: { id: user.id, email: user.email, name: user.name },
  business_id: invite.business_id,
  role: invite.role,
});
