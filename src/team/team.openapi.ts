import type { Feature } from '../openapi/operation.js';
import { acceptedInviteSchema, createdInviteSchema, teamSchema } from './team.responses.js';
import { acceptInviteBody, inviteBody } from './team.schemas.js';

export const teamDocs: Feature = {
  tags: [{ name: 'Team', description: 'Members of a business, pending invites, and accepting an invite' }],
  operations: [
    {
      method: 'get',
      path: '/businesses/:business_id/team',
      operationId: 'getTeam',
      summary: 'List members and pending invites',
      tag: 'Team',
      guard: 'business',
      action: 'read',
      responses: [{ status: 200, description: 'The team', json: teamSchema }],
    },
    {
      method: 'post',
      path: '/businesses/:business_id/team/invite',
      operationId: 'inviteTeamMember',
      summary: 'Invite a team member',
      description:
        'The one-time token is returned here only: pass it on to the invitee. An email that is already a ' +
        'member, or already has a pending invite, is a 409.',
      tag: 'Team',
      guard: 'business',
      action: 'manage_team',
      accessNote: 'Inviting an `owner` needs the role `owner`.',
      body: inviteBody,
      responses: [{ status: 201, description: 'The invite, with its token', json: createdInviteSchema }],
      errors: [409],
    },
    {
      method: 'delete',
      path: '/businesses/:business_id/team/invites/:id',
      operationId: 'cancelTeamInvite',
      summary: 'Cancel a pending invite',
      tag: 'Team',
      guard: 'business',
      action: 'manage_team',
      responses: [{ status: 204, description: 'Cancelled' }],
    },
    {
      method: 'post',
      path: '/invites/accept',
      operationId: 'acceptInvite',
      summary: 'Accept an invite',
      description:
        'The invite token is the credential. Creates the user, or adds the membership to the existing user ' +
        'with that email (whose name and password stay as they are). An invalid, expired or used token is a 400.',
      tag: 'Team',
      guard: 'public',
      body: acceptInviteBody,
      responses: [{ status: 201, description: 'The membership', json: acceptedInviteSchema }],
      errors: [409],
    },
  ],
};
