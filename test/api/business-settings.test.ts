import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const base = (t: Team) => `/businesses/${t.business.id}`;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const patch = (t: Team, body: unknown, token = t.ownerToken) =>
  ctx
    .request()
    .patch(base(t))
    .set(as(token))
    .send(body as object);

async function activity(t: Team) {
  const { rows } = await ctx.db.pool.query<{ type: string; actor_user_id: string | null; data: unknown }>(
    `SELECT type, actor_user_id, data FROM activity WHERE business_id = $1 AND entity_type = 'business' ORDER BY id`,
    [t.business.id],
  );
  return rows;
}

describe('GET and PATCH /businesses/:id', () => {
  it('When a member or a read key reads the business, then it has exactly the documented fields', async () => {
    const t = await buildTeam(ctx.db);
    for (const token of [t.member.token, t.read]) {
      const res = await ctx.request().get(base(t)).set(as(token));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'name',
        'plan',
        'approval_required',
        'notify_followers',
        'roadmap_enabled',
        'roadmap_statuses',
        'brand_color',
        'default_language',
        'created_at',
        'updated_at',
      ]);
      expect(res.body).toMatchObject({
        id: t.business.id,
        name: t.business.name,
        plan: 'business',
        approval_required: false,
      });
    }
  });

  it('When an admin renames it and turns Approval required on, then both change, updated_at moves and one activity row says what changed', async () => {
    const t = await buildTeam(ctx.db);
    const before = (await ctx.request().get(base(t)).set(as(t.admin.token))).body;
    const res = await patch(t, { name: '  Café Soleil  ', approval_required: true }, t.admin.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Café Soleil', approval_required: true, created_at: before.created_at });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect((await ctx.request().get(base(t)).set(as(t.member.token))).body).toEqual(res.body);
    expect(await activity(t)).toEqual([
      {
        type: 'business.updated',
        actor_user_id: t.admin.id,
        data: {
          changes: {
            name: { from: t.business.name, to: 'Café Soleil' },
            approval_required: { from: false, to: true },
          },
        },
      },
    ]);
  });

  it('When the same values are sent again, then nothing is written', async () => {
    const t = await buildTeam(ctx.db);
    const res = await patch(t, { name: t.business.name, approval_required: false });
    expect(res.status).toBe(200);
    expect(await activity(t)).toEqual([]);
  });

  it('When Approval required is turned on, then what is already public stays public and only new public suggestions wait for review', async () => {
    const t = await buildTeam(ctx.db);
    const create = (content: string) =>
      ctx
        .request()
        .post(`${base(t)}/suggestions`)
        .set(as(t.ownerToken))
        .send({ content, visibility: 'public' });
    const published = (await create('Before the switch')).body;
    expect(published.review_state).toBe('not_required');
    expect((await patch(t, { approval_required: true })).status).toBe(200);
    const waiting = (await create('After the switch')).body;
    expect(waiting.review_state).toBe('pending');
    const again = await ctx
      .request()
      .get(`${base(t)}/suggestions/${published.id}`)
      .set(as(t.ownerToken));
    expect(again.body.review_state).toBe('not_required');
    // turning it off again publishes nothing by itself: the waiting one still needs a decision
    expect((await patch(t, { approval_required: false })).status).toBe(200);
    const still = await ctx
      .request()
      .get(`${base(t)}/suggestions/${waiting.id}`)
      .set(as(t.ownerToken));
    expect(still.body.review_state).toBe('pending');
  });

  it.each([
    [{}, 'give at least one of name, approval_required, notify_followers, roadmap_enabled, roadmap_statuses'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ approval_required: 'yes' }, 'approval_required'],
    [{ plan: 'enterprise' }, "unknown field(s) 'plan'"],
    [{ id: 'x' }, "unknown field(s) 'id'"],
  ])('When the body is %j, then it is a 400 naming the problem and nothing changes', async (body, named) => {
    const t = await buildTeam(ctx.db);
    const res = await patch(t, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(named);
    expect((await ctx.request().get(base(t)).set(as(t.ownerToken))).body.name).toBe(t.business.name);
  });

  it('When a member or any API key tries to change it, then it is a 403 and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    for (const token of [t.member.token, t.write, t.read]) {
      const res = await patch(t, { name: 'Hijacked' }, token);
      expect(res.status).toBe(403);
    }
    expect(await activity(t)).toEqual([]);
  });
});
