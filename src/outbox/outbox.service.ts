import { actorOf, type Principal } from '../auth/principal.js';
import type { Queryable } from '../db/database.js';
import { newId } from '../shared/ids.js';
import { deleteOldEvents, insertRecords, type ActivityEntry, type Records } from './outbox.repository.js';
import { wakeWorkers } from './event.bus.js';
import type { EventData, EventType } from './event.types.js';

/**
 * Who acted where there is no Principal: the admin CLI, the seed command, a user accepting an invite,
 * a customer on a QR code's page.
 */
export interface Actor {
  businessId: string;
  /** null: no user (the seed command, a key revoked from the CLI without one, a customer) */
  userId: string | null;
  /** The QR code whose public page a customer acted on. */
  qrCodeId?: string;
}

/** An operator's change through the admin CLI: credited to nobody. */
export const operator = (businessId: string): Actor => ({ businessId, userId: null });

/** A customer's feedback or vote on a QR code's public page: credited to the code. */
export const customer = (businessId: string, qrCodeId: string): Actor => ({ businessId, userId: null, qrCodeId });

/** The actor columns of an activity row. */
function credit(by: Principal | Actor): Pick<ActivityEntry, 'actorUserId' | 'actorApiKeyId' | 'actorQrCodeId'> {
  if ('kind' in by) return { ...actorOf(by), actorQrCodeId: null };
  return { actorUserId: by.userId, actorApiKeyId: null, actorQrCodeId: by.qrCodeId ?? null };
}

export type ActivityEvent = Omit<ActivityEntry, 'actorUserId' | 'actorApiKeyId' | 'actorQrCodeId'> & {
  /**
   * Also published as an event (the feed and webhooks, docs/events.md): the resource as its
   * single-item read returns it, what changed, and the event's type when it is not the activity's.
   */
  publish?: EventData & { type?: EventType };
};

/**
 * Records an event in the business's activity, crediting the caller: a principal's user (and key, when
 * it came through one), or an explicit actor. Called inside the transaction of the change it records,
 * so the two commit or fail together. The activity row and the published event are one statement.
 */
export async function recordActivity(db: Queryable, by: Principal | Actor, event: ActivityEvent): Promise<void> {
  const { publish, ...entry } = event;
  const actor = credit(by);
  let published: { id: string; type: EventType; data: EventData } | null = null;
  if (publish) {
    const { type = entry.type as EventType, ...data } = publish;
    published = { id: newId(), type, data };
  }
  afterRecorded(await insertRecords(db, by.businessId, { ...entry, ...actor }, published));
}

/**
 * Writes an event in the caller's transaction, with one webhook delivery per endpoint that takes it,
 * and wakes this process's webhook workers (other instances hear PostgreSQL's NOTIFY at commit).
 */
export async function publishEvent(db: Queryable, businessId: string, type: EventType, data: EventData) {
  afterRecorded(await insertRecords(db, businessId, null, { id: newId(), type, data }));
}

/**
 * The records of a change whose own statement writes them (recordsSql): the activity, credited like
 * recordActivity's, and the event when the change publishes one. Their data is SQL of the repository.
 */
export function recordsOf(
  by: Principal | Actor,
  activity: { type: string; entityType: ActivityEntry['entityType'] },
  eventType: EventType | null,
): Records {
  const actor = credit(by);
  return {
    activity: { ...activity, ...actor },
    event: eventType ? { id: newId(), type: eventType } : null,
  };
}

/** After a statement that wrote an event: wakes this process's webhook workers when it queued deliveries. */
export function afterRecorded(queued: number): void {
  if (queued > 0) wakeWorkers();
}

/**
 * Purges events past the retention (EVENT_RETENTION_DAYS), for the feed and webhooks alike, in small
 * batches, so no statement holds many locks for long. A change's activity stays: only its row's feed
 * part goes (deleteOldEvents).
 */
export async function purgeEvents(db: Queryable, retentionDays: number, maxBatches = 20): Promise<number> {
  let purged = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const deleted = await deleteOldEvents(db, retentionDays, 500);
    purged += deleted;
    // A batch is taken from each business's 500 oldest in the feed: one younger event among them (a
    // long transaction's) leaves it short, so only an empty batch ends the purge.
    if (deleted === 0) break;
  }
  return purged;
}
