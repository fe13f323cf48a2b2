import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildApiKey, buildIssue, buildLocation, buildTeam, buildUser, uniqueEmail } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Action = 'read' | 'comment' | 'change_status' | 'write' | 'manage_team' | 'manage_keys' | 'manage_business';
type Credential = 'owner' | 'admin' | 'member' | 'write key' | 'read key';

interface RouteCase {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Path below /businesses/:id, and a body, made fresh for each call (deletes need their own target). */
  setup(team: Team): Promise<{ path: string; body?: object }>;
  action: Action;
  status: number;
}

const suggestion = async (t: Team) =>
  (await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'parent' })).body
    .id as string;
const issue = async (t: Team) => (await buildIssue(ctx.db, t.business.id)).id;
const qrCode = async (t: Team) =>
  (await ctx.request().post(`/businesses/${t.business.id}/qr-codes`).set('X-API-Key', t.write).send({ label: 'Door' }))
    .body.id as string;
const pendingInvite = async (t: Team) =>
  (
    await ctx
      .request()
      .post(`/businesses/${t.business.id}/team/invite`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ email: uniqueEmail('inv') })
  ).body.id as string;

const location = async (t: Team) => (await buildLocation(ctx.db, t.business.id, `Terrace ${randomUUID()}`)).id;
/** A member of the team's business other than the caller: removing or demoting them is the call's effect. */
const otherMember = async (t: Team) => (await buildUser(ctx.db, t.business.id, 'member')).id;

const ROUTES: Record<string, RouteCase> = {
  'GET /': { method: 'get', setup: () => Promise.resolve({ path: '' }), action: 'read', status: 200 },
  'PATCH /': {
    method: 'patch',
    setup: () => Promise.resolve({ path: '', body: { approval_required: true } }),
    action: 'manage_business',
    status: 200,
  },
  'GET /locations': {
    method: 'get',
    setup: () => Promise.resolve({ path: '/locations' }),
    action: 'read',
    status: 200,
  },
  'GET /locations/:id': {
    method: 'get',
    setup: async (t) => ({ path: `/locations/${await location(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /locations': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/locations', body: { name: `Patio ${randomUUID()}` } }),
    action: 'write',
    status: 201,
  },
  'PATCH /locations/:id': {
    method: 'patch',
    setup: async (t) => ({ path: `/locations/${await location(t)}`, body: { name: `Garden ${randomUUID()}` } }),
    action: 'write',
    status: 200,
  },
  'DELETE /locations/:id': {
    method: 'delete',
    setup: async (t) => ({ path: `/locations/${await location(t)}` }),
    action: 'write',
    status: 204,
  },
  'PATCH /team/members/:user_id': {
    method: 'patch',
    setup: async (t) => ({ path: `/team/members/${await otherMember(t)}`, body: { role: 'admin' } }),
    action: 'manage_business',
    status: 200,
  },
  'DELETE /team/members/:user_id (someone else)': {
    method: 'delete',
    setup: async (t) => ({ path: `/team/members/${await otherMember(t)}` }),
    action: 'manage_business',
    status: 204,
  },
  'GET /suggestions': {
    method: 'get',
    setup: () => Promise.resolve({ path: '/suggestions' }),
    action: 'read',
    status: 200,
  },
  'GET /suggestions/:id': {
    method: 'get',
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/suggestions', body: { content: 'New idea' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /suggestions/:id (status)': {
    method: 'patch',
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}`, body: { status: 'reviewing' } }),
    action: 'change_status',
    status: 200,
  },
  'PATCH /suggestions/:id (priority)': {
    method: 'patch',
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}`, body: { priority: 'high' } }),
    action: 'write',
    status: 200,
  },
  'GET /suggestions/:id/comments': {
    method: 'get',
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/comments` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions/:id/comments': {
    method: 'post',
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/comments`, body: { content: 'Noted' } }),
    action: 'comment',
    status: 201,
  },
  'GET /issues': { method: 'get', setup: () => Promise.resolve({ path: '/issues' }), action: 'read', status: 200 },
  'GET /issues/:id': {
    method: 'get',
    setup: async (t) => ({ path: `/issues/${await issue(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /issues': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/issues', body: { title: 'Broken tap' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /issues/:id (status)': {
    method: 'patch',
    setup: async (t) => ({ path: `/issues/${await issue(t)}`, body: { status: 'in_progress' } }),
    action: 'change_status',
    status: 200,
  },
  'PATCH /issues/:id (priority)': {
    method: 'patch',
    setup: async (t) => ({ path: `/issues/${await issue(t)}`, body: { priority: 'critical' } }),
    action: 'write',
    status: 200,
  },
  'GET /issues/:id/comments': {
    method: 'get',
    setup: async (t) => ({ path: `/issues/${await issue(t)}/comments` }),
    action: 'read',
    status: 200,
  },
  'POST /issues/:id/comments': {
    method: 'post',
    setup: async (t) => ({ path: `/issues/${await issue(t)}/comments`, body: { content: 'Plumber booked' } }),
    action: 'comment',
    status: 201,
  },
  'GET /qr-codes': { method: 'get', setup: () => Promise.resolve({ path: '/qr-codes' }), action: 'read', status: 200 },
  'GET /qr-codes/:id': {
    method: 'get',
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}` }),
    action: 'read',
    status: 200,
  },
  'GET /qr-codes/:id/image': {
    method: 'get',
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}/image` }),
    action: 'read',
    status: 200,
  },
  'POST /qr-codes': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/qr-codes', body: { label: 'Table 4' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /qr-codes/:id': {
    method: 'patch',
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}`, body: { active: false } }),
    action: 'write',
    status: 200,
  },
  'DELETE /qr-codes/:id': {
    method: 'delete',
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}` }),
    action: 'write',
    status: 204,
  },
  'GET /team': { method: 'get', setup: () => Promise.resolve({ path: '/team' }), action: 'read', status: 200 },
  'POST /team/invite': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/team/invite', body: { email: uniqueEmail('new'), role: 'member' } }),
    action: 'manage_team',
    status: 201,
  },
  'DELETE /team/invites/:id': {
    method: 'delete',
    setup: async (t) => ({ path: `/team/invites/${await pendingInvite(t)}` }),
    action: 'manage_team',
    status: 204,
  },
  'GET /api-keys': {
    method: 'get',
    setup: () => Promise.resolve({ path: '/api-keys' }),
    action: 'manage_keys',
    status: 200,
  },
  'POST /api-keys': {
    method: 'post',
    setup: () => Promise.resolve({ path: '/api-keys', body: { name: 'CI', scope: 'read' } }),
    action: 'manage_keys',
    status: 201,
  },
  'DELETE /api-keys/:id': {
    method: 'delete',
    setup: async (t) => ({ path: `/api-keys/${(await buildApiKey(ctx.db, t.business.id)).id}` }),
    action: 'manage_keys',
    status: 200,
  },
  'GET /analytics/overview': {
    method: 'get',
    setup: () => Promise.resolve({ path: '/analytics/overview' }),
    action: 'read',
    status: 200,
  },
};

const ALLOWED: Record<Action, Credential[]> = {
  read: ['owner', 'admin', 'member', 'write key', 'read key'],
  comment: ['owner', 'admin', 'member', 'write key'],
  change_status: ['owner', 'admin', 'member', 'write key'],
  write: ['owner', 'admin', 'write key'],
  manage_team: ['owner', 'admin'],
  manage_keys: ['owner', 'admin'],
  manage_business: ['owner', 'admin'],
};

const tokenOf = (t: Team, who: Credential) =>
  ({ owner: t.ownerToken, admin: t.admin.token, member: t.member.token, 'write key': t.write, 'read key': t.read })[
    who
  ];

function call(route: RouteCase, businessId: string, path: string, body: object | undefined, token?: string) {
  let req = ctx.request()[route.method](`/businesses/${businessId}${path}`);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return body ? req.send(body) : req;
}

describe.each(Object.entries(ROUTES))('%s', (_name, route) => {
  it.each(['owner', 'admin', 'member', 'write key', 'read key'] as Credential[])(
    'When called by the business’s %s, then it is allowed or a 403 exactly as the role or scope says',
    async (who) => {
      const team = await buildTeam(ctx.db);
      const { path, body } = await route.setup(team);
      const res = await call(route, team.business.id, path, body, tokenOf(team, who));
      if (ALLOWED[route.action].includes(who)) {
        expect(res.status, res.text).toBe(route.status);
      } else {
        expect(res.status, res.text).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      }
    },
  );

  it("When called with another business's key or owner session, then it is a 403 and nothing leaks", async () => {
    const team = await buildTeam(ctx.db);
    const stranger = await buildTeam(ctx.db);
    const { path, body } = await route.setup(team);
    for (const token of [stranger.write, stranger.ownerToken]) {
      const res = await call(route, team.business.id, path, body, token);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
  });

  it('When called without a credential, then it is a 401', async () => {
    const team = await buildTeam(ctx.db);
    const { path, body } = await route.setup(team);
    const res = await call(route, team.business.id, path, body);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('When the business id is malformed, then it is a 403', async () => {
    const team = await buildTeam(ctx.db);
    const { path, body } = await route.setup(team);
    for (const token of [team.ownerToken, team.write]) {
      const res = await call(route, 'not-a-uuid', path, body, token);
      expect(res.status, res.text).toBe(403);
    }
  });
});
