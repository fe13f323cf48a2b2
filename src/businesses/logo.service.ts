import type pg from 'pg';
import type { Principal } from '../auth/principal.js';
import { withTransaction } from '../db/database.js';
import { operator, recordActivity } from '../outbox/outbox.service.js';
import { prepareLogo } from './logo.image.js';
import { deleteLogo, findLogo, findLogoBytes, touchBusiness, upsertLogo, type LogoRow } from './logo.repository.js';

/**
 * Sets the business's logo from the bytes sent: checked, decoded and re-encoded (logo.image.ts) before
 * the transaction, so the database waits on no image work. The business's row is touched too: its
 * change number moves and kept pages show the new logo at once.
 */
export async function setLogo(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  bytes: Buffer,
): Promise<LogoRow> {
  const logo = await prepareLogo(bytes);
  return withTransaction(pool, async (tx) => {
    const before = await findLogo(tx, businessId);
    const after = await upsertLogo(tx, businessId, logo);
    await touchBusiness(tx, businessId);
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'business.updated',
      entityType: 'business',
      entityId: businessId,
      data: { changes: { logo: { from: before?.hash ?? null, to: after.hash } } },
    });
    return after;
  });
}

export async function removeLogo(pool: pg.Pool, businessId: string, by: Principal | null): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const before = await findLogo(tx, businessId);
    // Nothing to remove is the same outcome: there is no logo afterwards either way.
    if (!before || !(await deleteLogo(tx, businessId))) return;
    await touchBusiness(tx, businessId);
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'business.updated',
      entityType: 'business',
      entityId: businessId,
      data: { changes: { logo: { from: before.hash, to: null } } },
    });
  });
}

export const getLogo = (pool: pg.Pool, businessId: string) => findLogo(pool, businessId);

export const logoBytes = (pool: pg.Pool, businessId: string, hash: string) => findLogoBytes(pool, businessId, hash);
