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
