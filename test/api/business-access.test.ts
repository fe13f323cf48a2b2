import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Method } from '../../src/http/route.js';
import { ROUTES } from '../../src/routes.js';
import { routesWithoutRow, rowsWithoutRoute } from '../support/role-matrix.js';
import { useTestApp } from '../support/app.js';
import {
  buildApiKey,
  buildChangelogEntry,
  buildIssue,
  buildLocation,
  buildTeam,
  buildUser,
  uniqueEmail,
} from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
type Action =
  | 'read'
  | 'comment'
  | 'change_status'
  | 'tag_items'
  | 'write'
  | 'manage_team'
  | 'manage_keys'
  | 'manage_webhooks'
  | 'manage_business'
  | 'read_followers';
type Credential = 'owner' | 'admin' | 'member' | 'write key' | 'read key';

/**
 * A row of the matrix, named after the declared route it calls (`PATCH /suggestions/:id`, the path
 * below /businesses/:business_id), with what sets it apart in parentheses when a route has several.
 */
interface RouteCase {
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

/** A tag of the team's business, made by its owner (keys never define tags): its id and name. */
async function tag(t: Team): Promise<{ id: string; name: string }> {
  const res = await ctx
    .request()
    .post(`/businesses/${t.business.id}/tags`)
    .set('Authorization', `Bearer ${t.ownerToken}`)
    .send({ name: `terrace ${randomUUID()}` });
  return { id: res.body.id as string, name: res.body.name as string };
}

const location = async (t: Team) => (await buildLocation(ctx.db, t.business.id, `Terrace ${randomUUID()}`)).id;
/** A member of the team's business other than the caller: removing or demoting them is the call's effect. */
const otherMember = async (t: Team) => (await buildUser(ctx.db, t.business.id, 'member')).id;
const vote = async (t: Team, suggestionId: string) =>
  (
    await ctx
      .request()
      .post(`/api/v1/suggestions/${suggestionId}/votes`)
      .set('X-API-Key', t.write)
      .send({ voter: { email: uniqueEmail('voter') } })
  ).body.id as string;
/** A webhook endpoint, made by the owner: keys never manage webhooks. A public name is not resolved here. */
const webhook = async (t: Team) =>
  (
    await ctx
      .request()
      .post(`/businesses/${t.business.id}/webhooks`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
      .send({ url: 'https://hooks.example.com/feedback', events: ['*'] })
  ).body.id as string;
/** A delivery of a webhook endpoint (its test event), as its owner lists it. */
async function delivery(t: Team): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await webhook(t);
  const owner = { Authorization: `Bearer ${t.ownerToken}` };
  await ctx.request().post(`/businesses/${t.business.id}/webhooks/${webhookId}/test`).set(owner);
  const listed = await ctx.request().get(`/businesses/${t.business.id}/webhooks/${webhookId}/deliveries`).set(owner);
  return { webhookId, deliveryId: listed.body.data[0].id as string };
}

/** A logo's body: one red pixel, as a PNG. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const MATRIX: Record<string, RouteCase> = {
  'GET /': { setup: () => Promise.resolve({ path: '' }), action: 'read', status: 200 },
  'PATCH /': {
    setup: () => Promise.resolve({ path: '', body: { approval_required: true } }),
    action: 'manage_business',
    status: 200,
  },
  'PUT /logo': {
    setup: () => Promise.resolve({ path: '/logo', body: ONE_PIXEL_PNG }),
    action: 'manage_business',
    status: 200,
  },
  'DELETE /logo': { setup: () => Promise.resolve({ path: '/logo' }), action: 'manage_business', status: 204 },
  'GET /roadmap': { setup: () => Promise.resolve({ path: '/roadmap' }), action: 'read', status: 200 },
  'GET /locations': {
    setup: () => Promise.resolve({ path: '/locations' }),
    action: 'read',
    status: 200,
  },
  'GET /locations/:id': {
    setup: async (t) => ({ path: `/locations/${await location(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /locations': {
    setup: () => Promise.resolve({ path: '/locations', body: { name: `Patio ${randomUUID()}` } }),
    action: 'write',
    status: 201,
  },
  'PATCH /locations/:id': {
    setup: async (t) => ({ path: `/locations/${await location(t)}`, body: { name: `Garden ${randomUUID()}` } }),
    action: 'write',
    status: 200,
  },
  'DELETE /locations/:id': {
    setup: async (t) => ({ path: `/locations/${await location(t)}` }),
    action: 'write',
    status: 204,
  },
  'PATCH /team/members/:user_id': {
    setup: async (t) => ({ path: `/team/members/${await otherMember(t)}`, body: { role: 'admin' } }),
    action: 'manage_business',
    status: 200,
  },
  'DELETE /team/members/:user_id (someone else)': {
    setup: async (t) => ({ path: `/team/members/${await otherMember(t)}` }),
    action: 'manage_business',
    status: 204,
  },
  'GET /suggestions': {
    setup: () => Promise.resolve({ path: '/suggestions' }),
    action: 'read',
    status: 200,
  },
  'GET /suggestions/:id': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions': {
    setup: () => Promise.resolve({ path: '/suggestions', body: { content: 'New idea' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /suggestions/:id (status)': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}`, body: { status: 'reviewing' } }),
    action: 'change_status',
    status: 200,
  },
  // Tagging is triage, like a status: members too (src/auth/authorize.ts).
  'PATCH /suggestions/:id (tags)': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}`, body: { tags: [(await tag(t)).name] } }),
    action: 'change_status',
    status: 200,
  },
  'POST /suggestions/:id/tags': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/tags`, body: { add: [(await tag(t)).name] } }),
    action: 'tag_items',
    status: 200,
  },
  'PATCH /suggestions/:id (priority)': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}`, body: { priority: 'high' } }),
    action: 'write',
    status: 200,
  },
  // The inbox's bulk change: judged by what it changes, as the PATCH is (`ids` only says which).
  'POST /suggestions/bulk (status)': {
    setup: async (t) => ({ path: '/suggestions/bulk', body: { ids: [await suggestion(t)], status: 'reviewing' } }),
    action: 'change_status',
    status: 200,
  },
  'POST /suggestions/bulk (priority)': {
    setup: async (t) => ({ path: '/suggestions/bulk', body: { ids: [await suggestion(t)], priority: 'high' } }),
    action: 'write',
    status: 200,
  },
  // A public reply speaks for the business: owners, admins and write keys, not members.
  'PUT /suggestions/:id/reply': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/reply`, body: { content: 'Thank you!' } }),
    action: 'write',
    status: 200,
  },
  'GET /suggestions/:id/similar': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/similar` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions/:id/merge': {
    setup: async (t) => ({
      path: `/suggestions/${await suggestion(t)}/merge`,
      body: { source_ids: [await suggestion(t)] },
    }),
    action: 'change_status',
    status: 200,
  },
  'POST /suggestions/:id/unmerge': {
    setup: async (t) => {
      const [target, source] = [await suggestion(t), await suggestion(t)];
      await ctx
        .request()
        .post(`/api/v1/suggestions/${target}/merge`)
        .set('X-API-Key', t.write)
        .send({ source_ids: [source] });
      return { path: `/suggestions/${source}/unmerge` };
    },
    action: 'change_status',
    status: 200,
  },
  'DELETE /suggestions/:id/reply': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/reply` }),
    action: 'write',
    status: 204,
  },
  // Customers' addresses: owners and admins only, never a key.
  'GET /suggestions/:id/followers': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/followers` }),
    action: 'read_followers',
    status: 200,
  },
  'GET /suggestions/:id/comments': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/comments` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions/:id/comments': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/comments`, body: { content: 'Noted' } }),
    action: 'comment',
    status: 201,
  },
  'GET /suggestions/:id/votes': {
    setup: async (t) => ({ path: `/suggestions/${await suggestion(t)}/votes` }),
    action: 'read',
    status: 200,
  },
  'POST /suggestions/:id/votes': {
    setup: async (t) => ({
      path: `/suggestions/${await suggestion(t)}/votes`,
      body: { voter: { email: uniqueEmail('voter') } },
    }),
    action: 'write',
    status: 201,
  },
  'DELETE /suggestions/:id/votes/:vote_id': {
    setup: async (t) => {
      const id = await suggestion(t);
      return { path: `/suggestions/${id}/votes/${await vote(t, id)}` };
    },
    action: 'write',
    status: 204,
  },
  'GET /events': { setup: () => Promise.resolve({ path: '/events' }), action: 'read', status: 200 },
  'GET /webhooks': {
    setup: () => Promise.resolve({ path: '/webhooks' }),
    action: 'manage_webhooks',
    status: 200,
  },
  'POST /webhooks': {
    setup: () => Promise.resolve({ path: '/webhooks', body: { url: 'https://hooks.example.com/new', events: ['*'] } }),
    action: 'manage_webhooks',
    status: 201,
  },
  'GET /webhooks/:id': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}` }),
    action: 'manage_webhooks',
    status: 200,
  },
  'PATCH /webhooks/:id': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}`, body: { active: false } }),
    action: 'manage_webhooks',
    status: 200,
  },
  'DELETE /webhooks/:id': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}` }),
    action: 'manage_webhooks',
    status: 204,
  },
  'POST /webhooks/:id/rotate-secret': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}/rotate-secret` }),
    action: 'manage_webhooks',
    status: 200,
  },
  'POST /webhooks/:id/test': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}/test` }),
    action: 'manage_webhooks',
    status: 202,
  },
  'GET /webhooks/:id/deliveries': {
    setup: async (t) => ({ path: `/webhooks/${await webhook(t)}/deliveries` }),
    action: 'manage_webhooks',
    status: 200,
  },
  'POST /webhooks/:webhook_id/deliveries/:delivery_id/redeliver': {
    setup: async (t) => {
      const { webhookId, deliveryId } = await delivery(t);
      return { path: `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver` };
    },
    action: 'manage_webhooks',
    status: 202,
  },
  'GET /issues': { setup: () => Promise.resolve({ path: '/issues' }), action: 'read', status: 200 },
  'GET /issues/:id': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}` }),
    action: 'read',
    status: 200,
  },
  'POST /issues': {
    setup: () => Promise.resolve({ path: '/issues', body: { title: 'Broken tap' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /issues/:id (status)': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}`, body: { status: 'in_progress' } }),
    action: 'change_status',
    status: 200,
  },
  'PATCH /issues/:id (tags)': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}`, body: { tags: [(await tag(t)).name] } }),
    action: 'change_status',
    status: 200,
  },
  'POST /issues/:id/tags': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}/tags`, body: { add: [(await tag(t)).name] } }),
    action: 'tag_items',
    status: 200,
  },
  'PATCH /issues/:id (priority)': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}`, body: { priority: 'critical' } }),
    action: 'write',
    status: 200,
  },
  'GET /issues/:id/comments': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}/comments` }),
    action: 'read',
    status: 200,
  },
  'POST /issues/:id/comments': {
    setup: async (t) => ({ path: `/issues/${await issue(t)}/comments`, body: { content: 'Plumber booked' } }),
    action: 'comment',
    status: 201,
  },
  // Tags are the business's settings: owners and admins define them, never a key; everyone reads them.
  'GET /tags': { setup: () => Promise.resolve({ path: '/tags' }), action: 'read', status: 200 },
  'POST /tags': {
    setup: () => Promise.resolve({ path: '/tags', body: { name: `coffee ${randomUUID()}`, color: '#AA3300' } }),
    action: 'manage_business',
    status: 201,
  },
  'PATCH /tags/:id': {
    setup: async (t) => ({ path: `/tags/${(await tag(t)).id}`, body: { public: true } }),
    action: 'manage_business',
    status: 200,
  },
  'DELETE /tags/:id': {
    setup: async (t) => ({ path: `/tags/${(await tag(t)).id}` }),
    action: 'manage_business',
    status: 204,
  },
  'GET /changelog': { setup: () => Promise.resolve({ path: '/changelog' }), action: 'read', status: 200 },
  'GET /changelog/:id': {
    setup: async (t) => ({ path: `/changelog/${(await buildChangelogEntry(ctx.db, t.business.id)).id}` }),
    action: 'read',
    status: 200,
  },
  'POST /changelog': {
    setup: () => Promise.resolve({ path: '/changelog', body: { title: 'Oat milk is here' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /changelog/:id': {
    setup: async (t) => ({
      path: `/changelog/${(await buildChangelogEntry(ctx.db, t.business.id)).id}`,
      body: { title: 'Soy milk too' },
    }),
    action: 'write',
    status: 200,
  },
  'DELETE /changelog/:id': {
    setup: async (t) => ({ path: `/changelog/${(await buildChangelogEntry(ctx.db, t.business.id)).id}` }),
    action: 'write',
    status: 204,
  },
  'POST /changelog/:id/publish': {
    setup: async (t) => ({
      path: `/changelog/${(await buildChangelogEntry(ctx.db, t.business.id)).id}/publish`,
      body: {},
    }),
    action: 'write',
    status: 200,
  },
  'POST /imports': {
    setup: () => Promise.resolve({ path: '/imports?kind=suggestions&dry_run=true' }),
    action: 'write',
    status: 200,
  },
  'GET /qr-codes': { setup: () => Promise.resolve({ path: '/qr-codes' }), action: 'read', status: 200 },
  'GET /qr-codes/:id': {
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}` }),
    action: 'read',
    status: 200,
  },
  'GET /qr-codes/:id/image': {
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}/image` }),
    action: 'read',
    status: 200,
  },
  'POST /qr-codes': {
    setup: () => Promise.resolve({ path: '/qr-codes', body: { label: 'Table 4' } }),
    action: 'write',
    status: 201,
  },
  'PATCH /qr-codes/:id': {
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}`, body: { active: false } }),
    action: 'write',
    status: 200,
  },
  'DELETE /qr-codes/:id': {
    setup: async (t) => ({ path: `/qr-codes/${await qrCode(t)}` }),
    action: 'write',
    status: 204,
  },
  'GET /team': { setup: () => Promise.resolve({ path: '/team' }), action: 'read', status: 200 },
  'POST /team/invite': {
    setup: () => Promise.resolve({ path: '/team/invite', body: { email: uniqueEmail('new'), role: 'member' } }),
    action: 'manage_team',
    status: 201,
  },
  'DELETE /team/invites/:id': {
    setup: async (t) => ({ path: `/team/invites/${await pendingInvite(t)}` }),
    action: 'manage_team',
    status: 204,
  },
  'GET /api-keys': {
    setup: () => Promise.resolve({ path: '/api-keys' }),
    action: 'manage_keys',
    status: 200,
  },
  'POST /api-keys': {
    setup: () => Promise.resolve({ path: '/api-keys', body: { name: 'CI', scope: 'read' } }),
    action: 'manage_keys',
    status: 201,
  },
  'DELETE /api-keys/:id': {
    setup: async (t) => ({ path: `/api-keys/${(await buildApiKey(ctx.db, t.business.id)).id}` }),
    action: 'manage_keys',
    status: 200,
  },
  'GET /analytics/overview': {
    setup: () => Promise.resolve({ path: '/analytics/overview' }),
    action: 'read',
    status: 200,
  },
};

const ALLOWED: Record<Action, Credential[]> = {
  read: ['owner', 'admin', 'member', 'write key', 'read key'],
  comment: ['owner', 'admin', 'member', 'write key'],
  change_status: ['owner', 'admin', 'member', 'write key'],
  tag_items: ['owner', 'admin', 'member', 'write key'],
  write: ['owner', 'admin', 'write key'],
  manage_team: ['owner', 'admin'],
  manage_keys: ['owner', 'admin'],
  manage_webhooks: ['owner', 'admin'],
  manage_business: ['owner', 'admin'],
  read_followers: ['owner', 'admin'],
};

const tokenOf = (t: Team, who: Credential) =>
  ({ owner: t.ownerToken, admin: t.admin.token, member: t.member.token, 'write key': t.write, 'read key': t.read })[
    who
  ];

const methodOf = (row: string) => row.split(' ')[0]!.toLowerCase() as Method;

describe('The role matrix', () => {
  it('When a route of the business family is declared, then the matrix has a row for it', () => {
    expect(routesWithoutRow(ROUTES, Object.keys(MATRIX))).toEqual([]);
  });

  it('When the matrix has a row, then it calls a declared route', () => {
    expect(rowsWithoutRoute(ROUTES, Object.keys(MATRIX))).toEqual([]);
  });
});

function call(row: string, businessId: string, path: string, body: object | undefined, token?: string) {
  let req = ctx.request()[methodOf(row)](`/businesses/${businessId}${path}`);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (Buffer.isBuffer(body)) req = req.set('Content-Type', 'image/png');
  return body ? req.send(body) : req;
}

describe.each(Object.entries(MATRIX))('%s', (row, route) => {
  it.each(['owner', 'admin', 'member', 'write key', 'read key'] as Credential[])(
    'When called by the business’s %s, then it is allowed or a 403 exactly as the role or scope says',
    async (who) => {
      const team = await buildTeam(ctx.db);
      const { path, body } = await route.setup(team);
      const res = await call(row, team.business.id, path, body, tokenOf(team, who));
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
      const res = await call(row, team.business.id, path, body, token);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
  });

  it('When called without a credential, then it is a 401', async () => {
    const team = await buildTeam(ctx.db);
    const { path, body } = await route.setup(team);
    const res = await call(row, team.business.id, path, body);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('When the business id is malformed, then it is a 403', async () => {
    const team = await buildTeam(ctx.db);
    const { path, body } = await route.setup(team);
    for (const token of [team.ownerToken, team.write]) {
      const res = await call(row, 'not-a-uuid', path, body, token);
      expect(res.status, res.text).toBe(403);
    }
  });
});
