import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import { createApiKey } from '../../src/api-keys/api-key.service.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { insertLocation } from '../../src/locations/location.repository.js';
import { insertSession } from '../../src/sessions/session.repository.js';
import { generateSessionToken } from '../../src/sessions/session-token.js';
import type { Plan, Role, Scope } from '../../src/shared/schemas.js';
import { addMember } from '../../src/users/user.service.js';
import { newId } from '../../src/shared/ids.js';
import { insertIssue, type NewIssueRow } from '../../src/issues/issue.repository.js';
import { insertSuggestion, type NewSuggestionRow } from '../../src/suggestions/suggestion.repository.js';

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID()}@example.test`;

export async function buildBusiness(db: Database, overrides: { plan?: Plan; approvalRequired?: boolean } = {}) {
  const { business, owner } = await createBusiness(db.pool, {
    name: `Business ${randomUUID().slice(0, 8)}`,
    plan: overrides.plan ?? 'business',
    ownerEmail: uniqueEmail('owner'),
    approvalRequired: overrides.approvalRequired,
  });
  return { business, owner };
}

export async function buildApiKey(db: Database, businessId: string, overrides: { scope?: Scope; name?: string } = {}) {
  const { row, key } = await createApiKey(db.pool, businessId, {
    name: overrides.name ?? 'test key',
    scope: overrides.scope ?? 'read',
  });
  return { ...row, key };
}

/** A business on an API plan with one read key and one write key: the usual starting point. */
export async function buildTenant(db: Database, overrides: { plan?: Plan; approvalRequired?: boolean } = {}) {
  const { business, owner } = await buildBusiness(db, overrides);
  const readKey = await buildApiKey(db, business.id, { scope: 'read', name: 'reader' });
  const writeKey = await buildApiKey(db, business.id, { scope: 'write', name: 'Zapier sync' });
  return { business, owner, readKey, writeKey, read: readKey.key, write: writeKey.key };
}

export async function buildLocation(db: Database, businessId: string, name = 'Main street') {
  return insertLocation(db.pool, businessId, { id: newId(), name });
}

/** Issues have no creation route in /api/v1: tests insert them through the repository. */
export async function buildIssue(
  db: Database,
  businessId: string,
  overrides: Partial<Omit<NewIssueRow, 'id' | 'source'>> = {},
) {
  return insertIssue(db.pool, businessId, {
    id: newId(),
    title: 'The card reader is broken',
    description: 'It rejects every contactless payment',
    status: 'open',
    priority: 'medium',
    assigneeId: null,
    customerName: null,
    customerEmail: null,
    locationId: null,
    source: 'dashboard',
    ...overrides,
  });
}

/** A member with a live session, made without a password round trip (argon2 is slow on purpose). */
export async function buildUser(db: Database, businessId: string, role: Role = 'member') {
  const email = uniqueEmail(role);
  const user = await addMember(db.pool, businessId, { email, role });
  const { token, digest } = generateSessionToken();
  await insertSession(db.pool, { id: newId(), userId: user.id, digest, lifetimeMs: 60 * 60_000 });
  return { ...user, token };
}

/** A tenant plus an owner, an admin and a member who can each call the business-scoped family. */
export async function buildTeam(db: Database) {
  const tenant = await buildTenant(db);
  const ownerToken = generateSessionToken();
  await insertSession(db.pool, {
    id: newId(),
    userId: tenant.owner.id,
    digest: ownerToken.digest,
    lifetimeMs: 3_600_000,
  });
  return {
    ...tenant,
    ownerToken: ownerToken.token,
    admin: await buildUser(db, tenant.business.id, 'admin'),
    member: await buildUser(db, tenant.business.id, 'member'),
  };
}

/**
 * A suggestion stored as given, through the repository: unlike POST /suggestions nothing is trimmed
 * or analysed, so tests can store leading tabs, carriage returns or a chosen sentiment score.
 */
export async function buildSuggestion(
  db: Database,
  businessId: string,
  overrides: Partial<Omit<NewSuggestionRow, 'id' | 'source'>> = {},
) {
  return insertSuggestion(db.pool, businessId, {
    id: newId(),
    content: 'Please add oat milk',
    status: 'pending',
    priority: 'medium',
    sentiment: 'neutral',
    sentimentScore: 0,
    customerName: null,
    customerEmail: null,
    isAnonymous: true,
    visibility: 'internal',
    reviewState: 'not_required',
    locationId: null,
    source: 'dashboard',
    ...overrides,
  });
}

export interface BulkOptions {
  /** The first row's created_at; row n (1-based) is created n milliseconds later, so the last is the newest. */
  startAt?: Date;
  /** Each row's text is this followed by its number, e.g. "bulk 17". */
  text?: string;
}

const BULK_START = new Date('2026-03-01T00:00:00.000Z');

/**
 * `count` suggestions of one business in a single `INSERT ... SELECT ... FROM generate_series`
 * statement: thousands of rows in well under a second, for caps and streaming. Rows bypass the
 * service (no sentiment analysis, no activity), which is all an export reads anyway.
 */
export async function buildSuggestions(db: Database, businessId: string, count: number, options: BulkOptions = {}) {
  await db.pool.query(
    /* sql */ `
    INSERT INTO suggestions (id, business_id, content, status, priority, sentiment, sentiment_score,
      is_anonymous, source, created_at, updated_at)
    SELECT gen_random_uuid(), $1, $2 || ' ' || n, 'pending', 'medium', 'neutral', 0,
      true, 'import', $3::timestamptz + n * interval '1 millisecond', $3::timestamptz + n * interval '1 millisecond'
    FROM generate_series(1, $4::int) AS n`,
    [businessId, options.text ?? 'bulk', options.startAt ?? BULK_START, count],
  );
}

/** `count` issues of one business in one statement, numbered and timed as in buildSuggestions. */
export async function buildIssues(db: Database, businessId: string, count: number, options: BulkOptions = {}) {
  await db.pool.query(
    /* sql */ `
    INSERT INTO issues (id, business_id, title, description, status, priority, is_anonymous, source,
      created_at, updated_at)
    SELECT gen_random_uuid(), $1, $2 || ' ' || n, '', 'open', 'medium', true, 'import',
      $3::timestamptz + n * interval '1 millisecond', $3::timestamptz + n * interval '1 millisecond'
    FROM generate_series(1, $4::int) AS n`,
    [businessId, options.text ?? 'bulk', options.startAt ?? BULK_START, count],
  );
}

/**
 * Deletes a business and, by cascade, all it owns. Tests that bulk-insert thousands of rows call it
 * when they finish, so the shared PostgreSQL test database does not grow by megabytes every run.
 */
export async function removeBusiness(db: Database, businessId: string) {
  await db.pool.query('DELETE FROM businesses WHERE id = $1', [businessId]);
}
