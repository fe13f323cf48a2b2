import { describe, expect, it } from 'vitest';
import { useTestApp } from './app.js';
import {
  buildApiKey,
  buildBusiness,
  buildComment,
  buildIssue,
  buildLocation,
  buildQrCode,
  buildSuggestion,
  buildUser,
} from './factories.js';

/** The factories every test relies on: a row they build belongs to the business they say it does. */
const ctx = useTestApp();

/** The business a stored row belongs to, read from its table rather than from what the factory returned. */
async function ownerOf(table: string, id: string): Promise<string | undefined> {
  const { rows } = await ctx.db.pool.query<{ business_id: string }>(`SELECT business_id FROM ${table} WHERE id = $1`, [
    id,
  ]);
  return rows[0]?.business_id;
}

async function memberOf(userId: string): Promise<string[]> {
  const { rows } = await ctx.db.pool.query<{ business_id: string }>(
    'SELECT business_id FROM memberships WHERE user_id = $1',
    [userId],
  );
  return rows.map((row) => row.business_id);
}

const FACTORIES = {
  suggestions: (businessId?: string) => (businessId ? buildSuggestion(ctx.db, businessId) : buildSuggestion(ctx.db)),
  issues: (businessId?: string) => (businessId ? buildIssue(ctx.db, businessId) : buildIssue(ctx.db)),
  qr_codes: (businessId?: string) => (businessId ? buildQrCode(ctx.db, businessId) : buildQrCode(ctx.db)),
  api_keys: (businessId?: string) => (businessId ? buildApiKey(ctx.db, businessId) : buildApiKey(ctx.db)),
  comments: (businessId?: string) => (businessId ? buildComment(ctx.db, businessId) : buildComment(ctx.db)),
  locations: (businessId?: string) => buildLocation(ctx.db, businessId),
};

describe('factories', () => {
  it.each(Object.keys(FACTORIES) as (keyof typeof FACTORIES)[])(
    'When %s are built without a business, then each gets a new business of its own',
    async (table) => {
      const first = await FACTORIES[table]();
      const second = await FACTORIES[table]();
      expect(await ownerOf(table, first.id)).toBe(first.business_id);
      expect(await ownerOf(table, second.id)).toBe(second.business_id);
      expect(first.business_id).not.toBe(second.business_id);
    },
  );

  it.each(Object.keys(FACTORIES) as (keyof typeof FACTORIES)[])(
    'When %s are built for a business, then they belong to it',
    async (table) => {
      const { business } = await buildBusiness(ctx.db);
      const row = await FACTORIES[table](business.id);
      expect(row.business_id).toBe(business.id);
      expect(await ownerOf(table, row.id)).toBe(business.id);
    },
  );

  it('When overrides come without a business, then they apply to the row and the business is built', async () => {
    const suggestion = await buildSuggestion(ctx.db, { content: 'Oat milk, please', status: 'reviewing' });
    const issue = await buildIssue(ctx.db, { title: 'Door sticks' });
    const qr = await buildQrCode(ctx.db, { label: 'Terrace', active: false });
    const key = await buildApiKey(ctx.db, { scope: 'write' });
    expect([suggestion.content, suggestion.status, issue.title, qr.label, qr.active, key.scope]).toEqual([
      'Oat milk, please',
      'reviewing',
      'Door sticks',
      'Terrace',
      false,
      'write',
    ]);
    expect(await ownerOf('suggestions', suggestion.id)).toBe(suggestion.business_id);
  });

  it('When a suggestion and an issue are built, then they are stored as given and nothing is recorded beside them', async () => {
    // The factories insert with the service's own statements (insertRecordedSuggestion/-Issue), without records.
    const { business } = await buildBusiness(ctx.db, { approvalRequired: true });
    const suggestion = await buildSuggestion(ctx.db, business.id, {
      visibility: 'public',
      reviewState: 'approved',
      sentiment: 'negative',
      sentimentScore: -0.5,
      isAnonymous: false,
      customerName: 'Zoë',
    });
    const awaiting = await buildSuggestion(ctx.db, business.id, {
      visibility: 'public',
      reviewState: 'if_approval_required',
    });
    const issue = await buildIssue(ctx.db, business.id, { status: 'resolved', customerEmail: 'bo@example.com' });
    expect(suggestion).toMatchObject({
      review_state: 'approved',
      sentiment: 'negative',
      sentiment_score: -0.5,
      is_anonymous: false,
      customer_name: 'Zoë',
    });
    expect(awaiting.review_state).toBe('pending');
    expect(issue).toMatchObject({ status: 'resolved', is_anonymous: false, customer_email: 'bo@example.com' });
    expect(issue.resolved_at).toBeInstanceOf(Date);
    const ids = [suggestion.id, awaiting.id, issue.id];
    const { rows } = await ctx.db.pool.query<{ activity: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM activity WHERE entity_id = ANY ($1::uuid[])) AS activity,
        (SELECT count(*)::int FROM events WHERE data->'object'->>'id' = ANY ($1::text[])) AS events`,
      [ids],
    );
    expect(rows[0]).toEqual({ activity: 0, events: 0 });
  });

  it('When a member is built without a business, then they belong to a new one, with the role asked for', async () => {
    const member = await buildUser(ctx.db);
    const admin = await buildUser(ctx.db, undefined, 'admin');
    expect([member.role, admin.role]).toEqual(['member', 'admin']);
    expect(await memberOf(member.id)).toEqual([member.business_id]);
    expect(await memberOf(admin.id)).toEqual([admin.business_id]);
    expect(member.business_id).not.toBe(admin.business_id);
  });

  it('When a comment is built, then its suggestion or issue is built in its business unless given', async () => {
    const onSuggestion = await buildComment(ctx.db);
    expect(onSuggestion.entity_type).toBe('suggestion');
    expect(await ownerOf('suggestions', onSuggestion.entity_id)).toBe(onSuggestion.business_id);

    const onIssue = await buildComment(ctx.db, { entityType: 'issue', content: 'Fixed' });
    expect([onIssue.entity_type, onIssue.content]).toEqual(['issue', 'Fixed']);
    expect(await ownerOf('issues', onIssue.entity_id)).toBe(onIssue.business_id);

    // Given only the issue, the comment goes to the issue's business, not to a new one.
    const issue = await buildIssue(ctx.db);
    const onGiven = await buildComment(ctx.db, { entityType: 'issue', entityId: issue.id });
    expect([onGiven.entity_id, onGiven.business_id]).toEqual([issue.id, issue.business_id]);
    expect(await ownerOf('comments', onGiven.id)).toBe(issue.business_id);
  });
});
