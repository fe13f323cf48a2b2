import { Router, type Request, type Response } from 'express';
import { authorize, type Action } from '../auth/authorize.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { changeMemberRole, removeMember } from '../team/team-members.service.js';
import { inviteBody, memberRoleBody } from '../team/team.schemas.js';
import { cancelTeamInvite, getTeam, invite } from '../team/team.service.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

const SAVED: Record<string, string> = {
  invited: 'The invite is on its way.',
  cancelled: 'The invite is cancelled.',
  role: 'The role is changed.',
  removed: 'The member is removed.',
};

const DELIVERY: Record<string, string> = {
  pending: 'sending',
  sent: 'sent',
  failed: 'could not be delivered',
};

interface TeamView {
  inviting?: { values: Record<string, string>; errors: FieldErrors; formError?: string };
  /** A refusal about one member's row (the last owner), by user id. */
  refusal?: { userId: string; message: string };
  saved?: string;
  /** Development mail mode only: the link the invite email would have carried. */
  devLink?: string;
}

/**
 * Team: members with their roles and pending invites with their delivery state, through the JSON
 * routes' services and their authorize() actions: `read` to see; `manage_team` to invite and cancel;
 * `manage_business` to change roles and remove; `manage_owners` for anything about the owner role;
 * `leave` for anyone leaving. The last-owner rule is the service's, and its 409 is shown on the page.
 */
export function teamPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const member = requireMember(services);
  const path = '/b/:business_id/team';
  const teamOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/team`;

  const allowedTo = (req: Request, res: Response, action: Action): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function show(res: Response, who: SignedInMember, status: number, view: TeamView) {
    const { members, invites } = await getTeam(pool, who.principal.businessId);
    const canOwners = allowed(who.principal, 'manage_owners');
    const canMembers = allowed(who.principal, 'manage_business');
    sendView(res, status, 'team', {
      ...memberFrame(who, 'Team', 'team'),
      members: members.map((m) => ({
        id: m.id,
        name: m.name,
        email: m.email,
        role: m.role,
        joined: when(m.joined_at),
        me: m.id === who.principal.userId,
        // What authorize() lets this user do to that member: the service checks it again.
        manageable: m.id !== who.principal.userId && (m.role === 'owner' ? canOwners : canMembers),
      })),
      invites: invites.map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        expires: when(i.expires_at),
        delivery: i.delivery ? (DELIVERY[i.delivery] ?? i.delivery) : 'not sent',
        cancellable: i.role === 'owner' ? canOwners : allowed(who.principal, 'manage_team'),
      })),
      roles: canOwners ? ['member', 'admin', 'owner'] : ['member', 'admin'],
      inviting: view.inviting ?? { values: { role: 'member' }, errors: {} },
      refusal: view.refusal,
      saved: view.saved,
      devLink: view.devLink,
    });
  }

  router.get(path, member, async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await show(res, who, 200, { saved });
  });

  router.post(`${path}/invites`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_team');
    const fields = formFields(req);
    const values = { email: fields.email ?? '', role: fields.role ?? '' };
    const form = parseForm(inviteBody, values, { email: 'The email', role: 'the role' });
    if (!form.ok) return show(res, who, 400, { inviting: { values, errors: form.errors } });
    let token: string | undefined;
    try {
      ({ token } = await invite(pool, services.mail, who.principal, form.data, services.inviteLimits));
    } catch (err) {
      if (!(err instanceof HttpError) || ![403, 409, 429].includes(err.statusCode)) throw err;
      res.set(err.headers);
      // A 409 is about the address (a member, or invited already); a 403 about the role; a 429 the caps.
      const errors: FieldErrors =
        err.statusCode === 409 ? { email: err.message } : err.statusCode === 403 ? { role: err.message } : {};
      const formError = err.statusCode === 429 ? err.message : undefined;
      return show(res, who, err.statusCode, { inviting: { values, errors, formError } });
    }
    if (!token) return res.redirect(303, `${teamOf(who)}?saved=invited`);
    // Development mail mode: the email is only logged, so its link is shown here, as the JSON route returns the token.
    await show(res, who, 201, { saved: SAVED.invited, devLink: services.mail.link('accept-invite', token) ?? token });
  });

  router.post(`${path}/invites/:invite_id/cancel`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_team');
    await cancelTeamInvite(pool, who.principal, idParam(req.params.invite_id, 'Invite'));
    res.redirect(303, `${teamOf(who)}?saved=cancelled`);
  });

  const one = `${path}/members/:user_id`;

  router.post(`${one}/role`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_business');
    const id = idParam(req.params.user_id, 'Member');
    const form = parseForm(memberRoleBody, { role: formFields(req).role ?? '' }, { role: 'the role' });
    if (!form.ok)
      return show(res, who, 400, { refusal: { userId: id, message: form.errors.role ?? 'Choose a role.' } });
    try {
      await changeMemberRole(pool, who.principal.businessId, who.principal, id, form.data.role);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409) {
        return show(res, who, 409, { refusal: { userId: id, message: err.message } });
      }
      throw err;
    }
    res.redirect(303, `${teamOf(who)}?saved=role`);
  });

  const showRemove = async (res: Response, who: SignedInMember, id: string, status: number, refusal?: string) => {
    const { members } = await getTeam(pool, who.principal.businessId);
    const target = members.find((m) => m.id === id);
    if (!target) throw new HttpError(404, 'Member not found', 'NOT_FOUND');
    const leaving = target.id === who.principal.userId;
    sendView(res, status, 'member-remove', {
      ...memberFrame(who, leaving ? 'Leave the business' : 'Remove a member', 'team'),
      target: { id: target.id, name: target.name ?? target.email, role: target.role },
      leaving,
      refusal,
    });
  };

  router.get(`${one}/remove`, member, async (req, res) => {
    const who = allowedTo(req, res, 'leave');
    await showRemove(res, who, idParam(req.params.user_id, 'Member'), 200);
  });

  router.post(`${one}/remove`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'leave');
    const id = idParam(req.params.user_id, 'Member');
    try {
      await removeMember(pool, who.principal.businessId, who.principal, id);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409) return showRemove(res, who, id, 409, err.message);
      throw err;
    }
    // Having left, the business's pages are closed to them: back to the start.
    res.redirect(303, id === who.principal.userId ? BASE_PATH : `${teamOf(who)}?saved=removed`);
  });

  return router;
}
