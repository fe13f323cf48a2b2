import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import { createApiKey } from '../../src/api-keys/api-key.service.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { insertLocation } from '../../src/locations/location.repository.js';
import { insertTag } from '../../src/tags/tag.repository.js';
import { insertEntry, publishEntry } from '../../src/changelog/changelog.repository.js';
import { renderMarkdown } from '../../src/shared/markdown.js';
import { insertSession } from '../../src/sessions/session.repository.js';
import { generateSessionToken } from '../../src/auth/session-token.js';
import type { Plan, Role, Scope } from '../../src/shared/schemas.js';
import { addMember } from '../../src/users/user.service.js';
import { newId } from '../../src/shared/ids.js';
import type { Records } from '../../src/outbox/outbox.repository.js';
import { insertRecordedIssue, type NewIssueRow } from '../../src/issues/issue.repository.js';
import { insertRecordedSuggestion, type NewSuggestionRow } from '../../src/suggestions/suggestion.repository.js';
import { insertQrCode } from '../../src/qr-codes/qr-code.repository.js';
import { insertComment, type EntityType } from '../../src/comments/comment.repository.js';
import { findFirstOwner } from '../../src/users/user.repository.js';
import { randomBase62 } from '../../src/shared/random.js';

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

/**
 * A factory's arguments after the database: the business the row belongs to, then the row's own
 * overrides. Without a business one is built, as Outline's factories do, so a test never has to
 * make parents it does not care about: `buildIssue(db)`, `buildIssue(db, { title })` and
 * `buildIssue(db, businessId, { title })` all work.
 */
type Args<O extends object> = [businessId: string, overrides?: O] | [overrides?: O];

/** The business a factory was given, or a new one. */
async function businessFor(db: Database, businessId: string | undefined): Promise<string> {
  return businessId ?? (await buildBusiness(db)).business.id;
}

function splitArgs<O extends object>(args: Args<O>): [string | undefined, Partial<O>] {
  const [first, overrides] = args;
  return typeof first === 'string' ? [first, overrides ?? {}] : [undefined, first ?? {}];
}

export async function buildApiKey(db: Database, ...args: Args<{ scope?: Scope; name?: string }>) {
  const [given, overrides] = splitArgs(args);
  const { row, key } = await createApiKey(
    db.pool,
    await businessFor(db, given),
    { name: overrides.name ?? 'test key', scope: overrides.scope ?? 'read' },
    { maxActive: Number.MAX_SAFE_INTEGER },
  );
  return { ...row, key };
}

/** A business on an API plan with one read key and one write key: the usual starting point. */
export async function buildTenant(db: Database, overrides: { plan?: Plan; approvalRequired?: boolean } = {}) {
  const { business, owner } = await buildBusiness(db, overrides);
  const readKey = await buildApiKey(db, business.id, { scope: 'read', name: 'reader' });
  const writeKey = await buildApiKey(db, business.id, { scope: 'write', name: 'Zapier sync' });
  return { business, owner, readKey, writeKey, read: readKey.key, write: writeKey.key };
}

export async function buildLocation(db: Database, businessId?: string, name = 'Main street') {
  const business_id = await businessFor(db, businessId);
  return { ...(await insertLocation(db.pool, business_id, { id: newId(), name })), business_id };
}

/**
 * What a factory's row records: nothing. Rows are inserted by the service's own statement, without the
 * activity row and the event that a change made through the API writes beside it.
 */
const NO_RECORDS: Records = { activity: null, event: null };

/**
 * Issues have no creation route in /api/v1: tests insert them through the repository, with the
 * statement createIssue uses (an assignee must be a member of the business).
 */
export async function buildIssue(db: Database, ...args: Args<Partial<Omit<NewIssueRow, 'id' | 'source'>>>) {
  const [given, overrides] = splitArgs(args);
  const business_id = await businessFor(db, given);
  const created = await insertRecordedIssue(
    db.pool,
    business_id,
    {
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
      language: null,
      ...overrides,
    },
    NO_RECORDS,
    {},
  );
  if (!created) throw new Error(`buildIssue: assignee ${overrides.assigneeId} is not a member of the business`);
  return { ...created.row, business_id };
}

/** A member with a live session, made without a password round trip (argon2 is slow on purpose). */
export async function buildUser(db: Database, businessId?: string, role: Role = 'member') {
  const business_id = await businessFor(db, businessId);
  const user = await addMember(db.pool, business_id, { email: uniqueEmail(role), role });
  const { token, digest } = generateSessionToken();
  await insertSession(db.pool, { id: newId(), userId: user.id, digest, lifetimeMs: 60 * 60_000 });
  return { ...user, token, business_id };
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
 * A suggestion stored as given, through the statement createSuggestion uses: unlike POST /suggestions
 * nothing is trimmed or analysed, so tests can store leading tabs, carriage returns or a chosen
 * sentiment score.
 */
export async function buildSuggestion(db: Database, ...args: Args<Partial<Omit<NewSuggestionRow, 'id' | 'source'>>>) {
  const [given, overrides] = splitArgs(args);
  const business_id = await businessFor(db, given);
  const created = await insertRecordedSuggestion(
    db.pool,
    business_id,
    {
      id: newId(),
      content: 'Please add oat milk',
      status: 'pending',
      priority: 'medium',
      sentiment: 'neutral',
      sentimentScore: 0,
      // scored as given, in English: a factory's neutral is a scored neutral, not "not scored"
      language: 'en',
      sentimentLexicon: 'en',
      customerName: null,
      customerEmail: null,
      isAnonymous: true,
      visibility: 'internal',
      reviewState: 'not_required',
      locationId: null,
      source: 'dashboard',
      ...overrides,
    },
    NO_RECORDS,
  );
  if (!created) throw new Error(`buildSuggestion: location ${overrides.locationId} is not of the business`);
  return { ...created.row, business_id };
}

/** A tag through the repository (no activity row): `terrace` unless named, grey, not public. */
export async function buildTag(db: Database, ...args: Args<{ name?: string; color?: string; public?: boolean }>) {
  const [given, overrides] = splitArgs(args);
  const business_id = await businessFor(db, given);
  const tag = await insertTag(db.pool, business_id, {
    id: newId(),
    name: 'terrace',
    color: '#64748b',
    public: false,
    ...overrides,
  });
  return { ...tag, business_id };
}

/** A QR code through the repository (no activity row), with a fresh random code. */
export async function buildQrCode(
  db: Database,
  ...args: Args<{ label?: string; active?: boolean; locationId?: string | null }>
) {
  const [given, overrides] = splitArgs(args);
  const business_id = await businessFor(db, given);
  const qr = await insertQrCode(db.pool, business_id, {
    id: newId(),
    code: randomBase62(10),
    label: 'Table 4',
    locationId: null,
    active: true,
    ...overrides,
  });
  return { ...qr, business_id };
}

export interface CommentOverrides {
  /** What the comment is on; without an id, a new suggestion or issue of the business is built. */
  entityType?: EntityType;
  entityId?: string;
  content?: string;
  /** Defaults to the business's first owner. */
  authorId?: string;
  apiKeyId?: string | null;
}

const PARENT_TABLES: Record<EntityType, string> = { suggestion: 'suggestions', issue: 'issues' };

/**
 * A comment through the repository. Its parents are built when missing: the business (or, when only
 * the entity is given, the entity's own business) and the suggestion or issue it is on.
 */
export async function buildComment(db: Database, ...args: Args<CommentOverrides>) {
  const [given, overrides] = splitArgs(args);
  const entityType = overrides.entityType ?? 'suggestion';
  let business_id = given;
  if (!business_id && overrides.entityId) {
    const { rows } = await db.pool.query<{ business_id: string }>(
      `SELECT business_id FROM ${PARENT_TABLES[entityType]} WHERE id = $1`,
      [overrides.entityId],
    );
    if (!rows[0]) throw new Error(`buildComment: no ${entityType} ${overrides.entityId}`);
    business_id = rows[0].business_id;
  }
  business_id = await businessFor(db, business_id);
  const entityId =
    overrides.entityId ??
    (entityType === 'issue' ? await buildIssue(db, business_id) : await buildSuggestion(db, business_id)).id;
  const authorId = overrides.authorId ?? (await findFirstOwner(db.pool, business_id))!.id;
  const comment = await insertComment(db.pool, business_id, {
    id: newId(),
    entityType,
    entityId,
    content: overrides.content ?? 'Thanks, we are on it',
    authorId,
    apiKeyId: overrides.apiKeyId ?? null,
  });
  return { ...comment, business_id };
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
      language, sentiment_lexicon, is_anonymous, source, created_at, updated_at)
    SELECT gen_random_uuid(), $1, $2 || ' ' || n, 'pending', 'medium', 'neutral', 0,
      'en', 'en', true, 'import', $3::timestamptz + n * interval '1 millisecond', $3::timestamptz + n * interval '1 millisecond'
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

/**
 * A changelog entry through the repository's statements (no activity, event or notice): a draft
 * unless `published`, its body rendered as the service renders it.
 */
export async function buildChangelogEntry(
  db: Database,
  ...args: Args<{ title?: string; body?: string; suggestionIds?: string[]; published?: boolean }>
) {
  const [given, overrides] = splitArgs(args);
  const business_id = await businessFor(db, given);
  const body = overrides.body ?? 'Oat milk at every counter.';
  const entry = await insertEntry(db.pool, business_id, {
    id: newId(),
    title: overrides.title ?? 'Oat milk is here',
    body,
    bodyHtml: renderMarkdown(body),
    suggestionIds: overrides.suggestionIds ?? [],
  });
  const row = overrides.published ? (await publishEntry(db.pool, business_id, entry.id))! : entry;
  return { ...row, business_id };
}
