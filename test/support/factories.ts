import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import { createApiKey } from '../../src/api-keys/api-key.service.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { insertLocation } from '../../src/locations/location.repository.js';
import type { Plan, Scope } from '../../src/shared/schemas.js';
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
