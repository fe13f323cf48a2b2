import { presentedSession } from '../auth/credentials.js';
import { created, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toAcceptedInviteResponse, toCreatedInviteResponse, toTeamMember, toTeamResponse } from './team.presenter.js';
import { changeMemberRole, removeMember } from './team-members.service.js';
import { acceptedInviteSchema, createdInviteSchema, teamMemberSchema, teamSchema } from './team.responses.js';
import { acceptInviteBody, inviteBody, memberRoleBody } from './team.schemas.js';
import { acceptInvite, cancelTeamInvite, getTeam, invite } from './team.service.js';

const common = { tag: 'Team', guard: 'business' } as const;

/** /businesses/:business_id/team (members and pending invites), and accepting an invite. */
export const teamFeature: Feature = {
  tags: [{ name: 'Team', description: 'Members of a business, pending invites, and accepting an invite' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: '/businesses/:business_id/team',
      operationId: 'getTeam',
      summary: 'List members and pending invites',
      action: 'read',
      responses: [{ status: 200, description: 'The team', json: teamSchema }],
      handler: async ({ principal, db }) => ok(toTeamResponse(await getTeam(db, principal.businessId))),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/businesses/:business_id/team/invite',
      operationId: 'inviteTeamMember',
      summary: 'Invite a team member',
      description:
        'The one-time token is emailed to the invitee, and only there: it proves that whoever accepts controls ' +
        'the address. `GET .../team` shows whether the email went out (`delivery`). Without SMTP (development ' +
        'mail mode) the token is also returned here, and the email only logged. An email that is already a ' +
        'member, or already has a pending invite, is a 409. Invite emails are capped: per business per hour ' +
        '(`INVITES_PER_BUSINESS_PER_HOUR`, 50) and per address per 24 hours (`INVITES_PER_ADDRESS_PER_DAY`, 3), ' +
        'cancelled invites included; past either, a 429 with `Retry-After`.',
      action: 'manage_team',
      accessNote: 'Inviting an `owner` needs the role `owner`.',
      body: inviteBody,
      responses: [{ status: 201, description: 'The invite, with its token', json: createdInviteSchema }],
      errors: [409],
      handler: async ({ principal, body, services, db }) => {
        const { row, token } = await invite(db, services.mail, principal, body, services.inviteLimits);
        return created(toCreatedInviteResponse(row, token));
      },
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/businesses/:business_id/team/invites/:id',
      resource: 'Invite',
      operationId: 'cancelTeamInvite',
      summary: 'Cancel a pending invite',
      description: 'Its email is withdrawn if it has not gone out yet.',
      action: 'manage_team',
      accessNote: 'Cancelling an invite for the `owner` role needs the role `owner`.',
      responses: [{ status: 204, description: 'Cancelled' }],
      handler: async ({ principal, id, db }) => {
        await cancelTeamInvite(db, principal, id);
        return noContent();
      },
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/businesses/:business_id/team/members/:user_id',
      resource: 'Member',
      params: { user_id: 'The member, by user id; a malformed id, or one who is not a member, is a 404' },
      operationId: 'updateTeamMember',
      summary: "Change a member's role",
      description:
        'Only an owner grants or takes the `owner` role; the last owner cannot be demoted (409). To hand the ' +
        'business over, make the new owner `owner`, then demote yourself or leave.',
      action: 'manage_business',
      accessNote: 'Changing an owner, or making someone owner, needs the role `owner`.',
      body: memberRoleBody,
      responses: [{ status: 200, description: 'The member with the new role', json: teamMemberSchema }],
      errors: [409],
      handler: async ({ principal, body, id, db }) =>
        ok(toTeamMember(await changeMemberRole(db, principal.businessId, principal, id, body.role))),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/businesses/:business_id/team/members/:user_id',
      resource: 'Member',
      params: { user_id: 'The member, by user id; a malformed id, or one who is not a member, is a 404' },
      operationId: 'removeTeamMember',
      summary: 'Remove a member, or leave',
      description:
        'Access ends at once: the next request of the removed user to this business is a 403 (their other ' +
        'businesses are not affected). Issues assigned to them become unassigned, and `assigned` ones `open`. ' +
        'The last owner can neither leave nor be removed (409).',
      action: 'leave',
      accessNote:
        'Any member may remove themselves; removing someone else needs the role `owner` or `admin`, and ' +
        'removing an owner the role `owner`.',
      responses: [{ status: 204, description: 'Removed' }],
      errors: [409],
      handler: async ({ principal, id, db }) => {
        await removeMember(db, principal.businessId, principal, id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'post',
      path: '/invites/accept',
      operationId: 'acceptInvite',
      summary: 'Accept an invite',
      description:
        'The invite token (from the email) is checked first: an invalid, expired or used one is a 401 that counts ' +
        'against the address’s failure budget, like a failed sign-in. For an email without an account, send ' +
        '`name` and `password`: the account is created and its email counts as verified. For an email that ' +
        'already has an account, sign in as that user and send only the token with `Authorization: Bearer ' +
        '<session token>`; without it the answer is a 401 (`SIGN_IN_REQUIRED`) that says nothing about the ' +
        'account. A session of another user is a 403.',
      tag: 'Team',
      guard: 'public',
      optionalSession: true,
      body: acceptInviteBody,
      responses: [{ status: 201, description: 'The membership', json: acceptedInviteSchema }],
      errors: [401, 403, 409],
      handler: async ({ req, body, db }) => {
        // The dashboard's form (src/dashboard/dashboard.invite.ts) runs this with the browser's cookie session,
        // checked there with its form token, where a client sends a Bearer one.
        const session = req.dashboardSession ?? (await presentedSession(db, req));
        const { user, invite: accepted } = await acceptInvite(db, body, session);
        return created(toAcceptedInviteResponse(user, accepted));
      },
    }),
  ],
};
