import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { postPageForm } from '../support/dashboard.js';
import { buildSuggestion, buildTeam } from '../support/factories.js';

/**
 * The inbox's bulk form when its operation answers a 409 (issue 40): a selected suggestion decided
 * meanwhile comes back as the inbox with the selection marked, in the catalogue's words for the code.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const withSession = (token: string) => supertest.agent(ctx.app).set('Cookie', `fb_session=${token}`);
const home = (t: Team) => `/app/b/${t.business.id}`;

const reviewOf = async (t: Team, id: string) =>
  (
    await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions/${id}`)
      .set('Authorization', `Bearer ${t.ownerToken}`)
  ).body.review_state as string;

describe('the inbox bulk form refused with a 409', () => {
  it('When a selected suggestion is no longer awaiting review, then the inbox comes back as a 409 with the selection marked, and nothing changes', async () => {
    const t = await buildTeam(ctx.db);
    const waiting = await buildSuggestion(ctx.db, t.business.id, {
      content: 'A bike rack',
      visibility: 'public',
      reviewState: 'pending',
    });
    const decided = await buildSuggestion(ctx.db, t.business.id, {
      content: 'Longer hours',
      visibility: 'public',
      reviewState: 'approved',
    });
    const agent = withSession(t.admin.token);
    const res = await postPageForm(agent, home(t), `${home(t)}/suggestions/bulk`, {
      id: [waiting.id, decided.id],
      review: 'reject',
    });
    expect(res.status, res.text.slice(0, 500)).toBe(409);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // the inbox again, not the error page: its table and the selection marked with the code's words
    expect(res.text).toContain('class="inbox-table"');
    expect(res.text).toContain('A selected suggestion is no longer awaiting review');
    expect(res.text).toMatch(/id="select-[^"]+"[^>]*aria-invalid="true"/);
    expect(res.text).not.toContain('Suggestion is not awaiting review');
    expect(await reviewOf(t, waiting.id)).toBe('pending');
    expect(await reviewOf(t, decided.id)).toBe('approved');
  });

  it('When every selected suggestion awaits review, then the decision is made and the inbox says so', async () => {
    const t = await buildTeam(ctx.db);
    const waiting = await buildSuggestion(ctx.db, t.business.id, {
      content: 'A bike rack',
      visibility: 'public',
      reviewState: 'pending',
    });
    const res = await postPageForm(withSession(t.admin.token), home(t), `${home(t)}/suggestions/bulk`, {
      id: [waiting.id],
      review: 'approve',
    });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    expect(res.headers.location).toBe(`${home(t)}?saved=approved`);
    expect(await reviewOf(t, waiting.id)).toBe('approved');
  });
});

describe("a suggestion's page", () => {
  it("When it is opened, then its sentiment and its empty sections read in the catalogue's words", async () => {
    const t = await buildTeam(ctx.db);
    const s = await buildSuggestion(ctx.db, t.business.id, { content: 'Too loud', sentiment: 'negative' });
    const page = await withSession(t.member.token).get(`${home(t)}/suggestions/${s.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<dd>Negative<\/dd>/);
    expect(page.text).toContain('No votes yet.');
    expect(page.text).toContain('No comments yet.');
    expect(page.text).not.toContain('app.suggestion.');
  });
});
