import type pg from 'pg';
import { withTransaction } from '../db/database.js';
import { newId } from '../shared/ids.js';
import type { Plan } from '../shared/schemas.js';
import { findUserByEmail, insertMembership, insertUser } from '../users/user.repository.js';
import { operator, recordActivity } from '../outbox/outbox.service.js';
import type { Principal } from '../auth/principal.js';
import { HttpError, notFound } from '../errors/http-error.js';
import { fieldChanges } from '../shared/changes.js';
import { findBusiness, insertBusiness, updateBusiness, type BusinessRow } from './business.repository.js';
import type { UpdateBusinessBody } from './business.schemas.js';
import { contrastShortfall, MIN_CONTRAST } from './brand.color.js';

const AGAINST = { page_background: "the page's background (#f6f5f2)", button_text: "the buttons' white text" };

/** A colour that falls short of 4.5:1 is a 422 naming the measured ratio and what it stands against. */
function assertReadable(color: string): void {
  const shortfall = contrastShortfall(color);
  if (!shortfall) return;
  const message = `${color} gives ${shortfall.ratio}:1 against ${AGAINST[shortfall.against]}; at least ${MIN_CONTRAST}:1 is needed`;
  throw new HttpError(422, `brand_color: ${message}`, 'LOW_CONTRAST', {}, [
    {
      field: 'brand_color',
      code: 'low_contrast',
      message,
      params: { ratio: shortfall.ratio.toFixed(2), against: shortfall.against, min: MIN_CONTRAST },
    },
  ]);
}

export interface NewBusiness {
  name: string;
  plan: Plan;
  ownerEmail?: string;
  /** A new owner's display name; an existing user keeps theirs. */
  ownerName?: string;
  /** A new owner whose address was proved (a sign-up's confirmation link). */
  ownerEmailVerified?: boolean;
  /** The argon2id hash of a new owner's password; an existing user keeps theirs. */
  ownerPasswordHash?: string;
  approvalRequired?: boolean;
}

/** A business always has an owner: the user with the given email, or a generated placeholder. */
export async function createBusiness(pool: pg.Pool, input: NewBusiness) {
  return withTransaction(pool, async (tx) => {
    const business = await insertBusiness(tx, {
      id: newId(),
      name: input.name,
      plan: input.plan,
      approvalRequired: input.approvalRequired ?? false,
    });
    const email = input.ownerEmail ?? `owner+${business.id}@users.invalid`;
    const owner =
      (await findUserByEmail(tx, email)) ??
      (await insertUser(tx, {
        id: newId(),
        email,
        name: input.ownerName ?? null,
        passwordHash: input.ownerPasswordHash ?? null,
        emailVerified: input.ownerEmailVerified ?? false,
      }));
    await insertMembership(tx, business.id, owner.id, 'owner');
    return { business, owner };
  });
}

export async function getBusiness(pool: pg.Pool, businessId: string): Promise<BusinessRow> {
  const business = await findBusiness(pool, businessId);
  if (!business) throw notFound('Business');
  return business;
}

/**
 * Renames the business, turns Approval required, follower notices or the roadmap on or off, or sets
 * the roadmap's columns; `by` is null for an operator (admin
 * CLI). Existing suggestions are left as they are either way (docs/decisions.md). A change that
 * changes nothing writes nothing.
 */
export async function changeBusiness(
  pool: pg.Pool,
  businessId: string,
  by: Principal | null,
  changes: UpdateBusinessBody,
): Promise<BusinessRow> {
  if (changes.brand_color) assertReadable(changes.brand_color);
  return withTransaction(pool, async (tx) => {
    const before = await findBusiness(tx, businessId, { forUpdate: true });
    if (!before) throw notFound('Business');
    const changed = fieldChanges(
      {
        name: before.name,
        approval_required: before.approval_required,
        notify_followers: before.notify_followers,
        roadmap_enabled: before.roadmap_enabled,
        brand_color: before.brand_color,
        default_language: before.default_language,
      },
      {
        name: changes.name,
        approval_required: changes.approval_required,
        notify_followers: changes.notify_followers,
        roadmap_enabled: changes.roadmap_enabled,
        brand_color: changes.brand_color,
        default_language: changes.default_language,
      },
    );
    // A list compares by its items, in order: the columns' order is a setting too.
    if (changes.roadmap_statuses && changes.roadmap_statuses.join() !== before.roadmap_statuses.join())
      changed.roadmap_statuses = { from: before.roadmap_statuses, to: changes.roadmap_statuses };
    if (Object.keys(changed).length === 0) return before;
    const after = (await updateBusiness(tx, businessId, {
      name: changes.name,
      approvalRequired: changes.approval_required,
      notifyFollowers: changes.notify_followers,
      roadmapEnabled: changes.roadmap_enabled,
      roadmapStatuses: changes.roadmap_statuses,
      brandColor: changes.brand_color,
      defaultLanguage: changes.default_language,
    }))!;
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'business.updated',
      entityType: 'business',
      entityId: businessId,
      data: { changes: changed },
    });
    return after;
  });
}
