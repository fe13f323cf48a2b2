import type pg from 'pg';
import { operator, recordActivity } from '../outbox/outbox.service.js';
import type { Principal } from '../auth/principal.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { withUniqueConflict } from '../db/errors.js';
import type { PageRequest } from '../db/paging.js';
import { conflict, notFound } from '../errors/http-error.js';
import { newId } from '../shared/ids.js';
import {
  countLocationUses,
  deleteLocation,
  detachLocation,
  insertLocation,
  LOCATIONS,
  renameLocation,
  type LocationRow,
  type LocationSort,
} from './location.repository.js';

/**
 * Locations of a business. `by` is who acts: a principal, or null for an operator through the
 * admin CLI; either way every change is an activity row.
 */

export async function listLocations(pool: pg.Pool, businessId: string, page: PageRequest<LocationSort>) {
  return LOCATIONS.page(pool, businessId, page);
}

export const getLocation = (db: Queryable, businessId: string, id: string): Promise<LocationRow> =>
  LOCATIONS.get(db, businessId, id);

/** Names are unique per business ignoring case: a taken one is a 409, whoever took it first. */
const uniqueName = <T>(name: string, write: () => Promise<T>): Promise<T> =>
  withUniqueConflict(write(), `A location named "${name}" already exists`, {
    field: 'name',
    code: 'location_taken',
    message: 'already used by another location',
    params: { name },
  });

export async function createLocation(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  name: string,
): Promise<LocationRow> {
  return uniqueName(name, () =>
    withTransaction(pool, async (tx) => {
      const location = await insertLocation(tx, businessId, { id: newId(), name });
      await recordActivity(tx, by ?? operator(businessId), {
        type: 'location.created',
        entityType: 'location',
        entityId: location.id,
        data: { name },
      });
      return location;
    }),
  );
}

export async function changeLocation(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  id: string,
  name: string,
): Promise<LocationRow> {
  return uniqueName(name, () =>
    withTransaction(pool, async (tx) => {
      const before = await LOCATIONS.find(tx, businessId, id, { forUpdate: true });
      if (!before) throw notFound('Location');
      if (before.name === name) return before;
      const after = (await renameLocation(tx, businessId, id, name))!;
      await recordActivity(tx, by ?? operator(businessId), {
        type: 'location.updated',
        entityType: 'location',
        entityId: id,
        data: { changes: { name: { from: before.name, to: name } } },
      });
      return after;
    }),
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * A location still named by QR codes, suggestions or issues is a 409 unless `force`, which first
 * detaches them (their `location_id` becomes null). The row lock makes a concurrent create that
 * names the location wait, and then fail its foreign key (a 409) rather than slip in between.
 */
export async function removeLocation(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  id: string,
  force: boolean,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const location = await LOCATIONS.find(tx, businessId, id, { forUpdate: true });
    if (!location) throw notFound('Location');
    const uses = await countLocationUses(tx, businessId, id);
    const inUse = uses.qr_codes + uses.suggestions + uses.issues > 0;
    if (inUse && !force) {
      const named = [
        plural(uses.qr_codes, 'QR code'),
        plural(uses.suggestions, 'suggestion'),
        plural(uses.issues, 'issue'),
      ].join(', ');
      const message = `Location "${location.name}" is still named by ${named}; delete with force=true to detach them`;
      throw conflict(message, [
        { field: '', code: 'location_in_use', message: `still named by ${named}`, params: { ...uses } },
      ]);
    }
    if (inUse) await detachLocation(tx, businessId, id);
    await deleteLocation(tx, businessId, id);
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'location.deleted',
      entityType: 'location',
      entityId: id,
      data: { name: location.name, detached: uses },
    });
  });
}
