import { Router, type Response } from 'express';
import { notFound } from '../errors/http-error.js';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import type { CreatedInvite, Team } from '../team/team.responses.js';
import { teamFeature } from '../team/team.routes.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { assertMayRun, mayRun, mountForm, replyBody, type FormAction, type PageCall } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const TEAM = {
  get: operation(teamFeature, 'getTeam'),
  invite: operation(teamFeature, 'inviteTeamMember'),
  cancel: operation(teamFeature, 'cancelTeamInvite'),
  changeRole: operation(teamFeature, 'updateTeamMember'),
  remove: operation(teamFeature, 'removeTeamMember'),
};

/** What a post's redirect says happened: `team.saved.<this>`. */
const SAVED = new Set(['invited', 'cancelled', 'role', 'removed']);
const DELIVERY = new Set(['pending', 'sent', 'failed']);

/** The fields' labels: a refusal's words are `<label>.<code>` (`team.field.email.already_member`), else `validation.<code>`. */
const INVITE_LABELS = { email: 'team.field.email', role: 'team.field.role' };
const MEMBER_LABELS = { role: 'team.field.role', '': 'team.member' };

interface TeamView {
  status?: number;
  inviting?: { values: Record<string, string>; errors: FieldErrors };
  /** A refusal about one member's row (the last owner), by user id. */
  refusal?: { userId: string; message: string };
  saved?: string;
  /** Development mail mode only: the link the invite email would have carried. */
  devLink?: string;
}

const readTeam = async (services: Services, who: SignedInMember) =>
  replyBody<Team>(await TEAM.get.invoke(services, who.principal));

/**
 * Team: members with their roles and pending invites with their delivery state. Every form runs the
 * team's declared operation (invite, cancel, change a role, remove or leave), with its access and its
 * rules (the last owner, the owner role); a refusal comes back as codes the page words.
 */
async function show(services: Services, res: Response, who: SignedInMember, view: TeamView) {
  const { members, invites } = await readTeam(services, who);
  // The owner role is the services' own check (inviting, changing or removing an owner): the page offers what it allows.
  const canOwners = allowed(who.principal, 'manage_owners');
  const canMembers = mayRun(who.principal, TEAM.changeRole);
  sendView(res, view.status ?? 200, 'team', {
    ...memberFrame(who, t('team.title'), 'team'),
    members: members.map((m) => ({
      id: m.user_id,
      name: m.name,
      email: m.email,
      role: m.role,
      joined: when(new Date(m.joined_at)),
      me: m.user_id === who.principal.userId,
      manageable: m.user_id !== who.principal.userId && (m.role === 'owner' ? canOwners : canMembers),
    })),
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      expires: when(new Date(i.expires_at)),
      delivery: t(`team.delivery.${DELIVERY.has(i.delivery ?? '') ? i.delivery : 'none'}`),
      cancellable: i.role === 'owner' ? canOwners : mayRun(who.principal, TEAM.cancel),
    })),
    roles: canOwners ? ['member', 'admin', 'owner'] : ['member', 'admin'],
    inviting: view.inviting ?? { values: { role: 'member' }, errors: {} },
    refusal: view.refusal,
    saved: view.saved,
    devLink: view.devLink,
  });
}

async function showRemove(services: Services, res: Response, who: SignedInMember, id: string, refused?: TeamView) {
  const { members } = await readTeam(services, who);
  const target = members.find((m) => m.user_id === id);
  if (!target) throw notFound('Member');
  const leaving = target.user_id === who.principal.userId;
  sendView(res, refused?.status ?? 200, 'member-remove', {
    ...memberFrame(who, t(leaving ? 'team.leave.title' : 'team.remove.title'), 'team'),
    target: { id: target.user_id, name: target.name ?? target.email, role: target.role },
    leaving,
    refusal: refused?.refusal?.message,
  });
}

const path = '/b/:business_id/team';
const one = `${path}/members/:user_id`;
const teamOf = ({ who }: PageCall, saved: string) => `${BASE_PATH}/b/${who.principal.businessId}/team?saved=${saved}`;
const memberId = (call: PageCall) => String(call.req.params.user_id).toLowerCase();

export const TEAM_FORMS: FormAction[] = [
  {
    path: `${path}/invites`,
    runs: TEAM.invite,
    body: (fields) => ({ email: fields.email ?? '', role: fields.role ?? '' }),
    labels: INVITE_LABELS,
    done: (call) => teamOf(call, 'invited'),
    // Development mail mode: the email is only logged, so its link is shown here, as the JSON route returns the token.
    answer: async (call, reply) => {
      const { token } = replyBody<CreatedInvite>(reply);
      if (!token) return call.res.redirect(303, teamOf(call, 'invited'));
      const devLink = call.services.mail.link('accept-invite', token) ?? token;
      await show(call.services, call.res, call.who, { status: 201, saved: t('team.saved.invited'), devLink });
    },
    again: ({ services, res, who }, { status, values, errors }) =>
      show(services, res, who, {
        status,
        inviting: { values: { email: values.email ?? '', role: values.role ?? '' }, errors },
      }),
  },
  {
    path: `${path}/invites/:id/cancel`,
    runs: TEAM.cancel,
    done: (call) => teamOf(call, 'cancelled'),
  },
  {
    path: `${one}/role`,
    runs: TEAM.changeRole,
    body: (fields) => ({ role: fields.role ?? '' }),
    labels: MEMBER_LABELS,
    done: (call) => teamOf(call, 'role'),
    again: (call, { status, errors }) =>
      show(call.services, call.res, call.who, {
        status,
        refusal: { userId: memberId(call), message: errors.role ?? errors[''] ?? t('team.field.role.choose') },
      }),
  },
  {
    path: `${one}/remove`,
    runs: TEAM.remove,
    labels: MEMBER_LABELS,
    // Having left, the business's pages are closed to them: back to the start.
    done: (call) => (memberId(call) === call.who.principal.userId ? BASE_PATH : teamOf(call, 'removed')),
    again: (call, { status, errors }) =>
      showRemove(call.services, call.res, call.who, memberId(call), {
        status,
        refusal: { userId: memberId(call), message: errors[''] ?? Object.values(errors)[0] ?? '' },
      }),
  },
];

export function teamPages(services: Services): Router {
  const router = Router();
  const member = requireMember(services);
  router.get(path, member, async (req, res) => {
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    await show(services, res, memberOf(res), { saved: saved && t(`team.saved.${saved}`) });
  });
  router.get(`${one}/remove`, member, async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, TEAM.remove);
    await showRemove(services, res, who, idParam(req.params.user_id, 'Member'));
  });
  for (const action of TEAM_FORMS) mountForm(router, services, action);
  return router;
}
