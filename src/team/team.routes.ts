import { Router } from 'express';
import type pg from 'pg';
import { principalOf } from '../http/auth.js';
import { permit } from '../http/authorize.js';
import { idParam } from '../http/params.js';
import { parseBody } from '../http/validation.js';
import type { MemberRow } from '../users/user.repository.js';
import type { InviteRow } from './team.repository.js';
import type { CreatedInvite, Team, TeamInvite, TeamMember } from './team.responses.js';
import { acceptInviteBody, inviteBody } from './team.schemas.js';
import { acceptInvite, cancelTeamInvite, getTeam, invite } from './team.service.js';

const toMember = (m: MemberRow): TeamMember => ({
  user_id: m.id,
  name: m.name,
  email: m.email,
  role: m.role,
  joined_at: m.joined_at.toISOString(),
});

const toInvite = (i: InviteRow): TeamInvite => ({
  id: i.id,
  email: i.email,
  role: i.role,
  created_at: i.created_at.toISOString(),
  expires_at: i.expires_at.toISOString(),
});

/** /businesses/:business_id/team: members and pending invites. */
export function teamRoutes(pool: pg.Pool): Router {
  const router = Router({ mergeParams: true });

  router.get('/team', async (req, res) => {
    const { members, invites } = await getTeam(pool, principalOf(req).businessId);
    res.json({ members: members.map(toMember), invites: invites.map(toInvite) } satisfies Team);
  });

  router.post('/team/invite', permit('manage_team'), async (req, res) => {
    const { row, token } = await invite(pool, principalOf(req), parseBody(inviteBody, req.body));
    res.status(201).json({ ...toInvite(row), token } satisfies CreatedInvite);
  });

  router.delete('/team/invites/:id', permit('manage_team'), async (req, res) => {
    await cancelTeamInvite(pool, principalOf(req), idParam(req.params.id, 'Invite'));
    res.status(204).end();
  });

  return router;
}

/** Mounted at /invites: POST /invites/accept, where the token is the credential. */
export function inviteAcceptRoutes(pool: pg.Pool): Router {
  const router = Router();
  router.post('/accept', async (req, res) => {
    res.status(201).json(await acceptInvite(pool, parseBody(acceptInviteBody, req.body)));
  });
  return router;
}
