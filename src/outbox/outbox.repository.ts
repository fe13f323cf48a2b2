import type { Queryable } from '../db/database.js';
import { DELIVERY_CHANNEL } from './event.bus.js';

export interface ActivityEntry {
  type: string;
  entityType:
    | 'suggestion'
    | 'issue'
    | 'comment'
    | 'qr_code'
    | 'api_key'
    | 'invite'
    | 'member'
    | 'business'
    | 'location'
    | 'tag'
    | 'changelog_entry';
  entityId: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  /** A customer on this QR code's public page. */
  actorQrCodeId: string | null;
  data?: Record<string, unknown>;
}

/** What a change records beside itself: the activity row, the event, or both. */
export interface Records {
  activity: Omit<ActivityEntry, 'entityId' | 'data'> | null;
  event: { id: string; type: string } | null;
}

/**
 * The values of the records, as SQL over `from`: a CTE of the statement with one row when the change
 * happened and none when it did not, so that a change not made records nothing.
 */
export interface RecordsSql {
  from: string;
  entityId: string;
  /** jsonb */
  activityData: string;
  /** jsonb: `{object, changes}`, or without `object` when `eventObject` gives it */
  eventData: string;
  /**
   * The event's `object` as the values alone (0068_event_object_values.sql): a jsonb array in the order
   * of the keys of `shape`, stored apart from `eventData` and put back by `event_data()` on every read.
   */
  eventObject?: EventObjectSql;
}

/** An event object stored as its values: the shape naming its keys, and the values as SQL (a jsonb array). */
export interface EventObjectSql {
  shape: number;
  values: string;
  /**
   * The event's whole `data` (object and changes) as SQL over `from`, for the webhook payloads: built
   * only when a delivery is queued, so the write path calls no `event_data()` (a SQL function with a
   * subquery, run as a statement of its own on every call).
   */
  whole: string;
}

/** An event's whole `data` as it was recorded, from a row of `events` (the feed's read). */
export const EVENT_DATA_SQL = 'event_data(data, object_shape, object_values)';

const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The CTEs that write a change's records in the statement that makes the change: one row of `events`
 * holding its activity and its event (0069_one_record_row.sql: the part a change does not record is
 * null), and one webhook delivery for each active endpoint of the business that takes the event's
 * type, with a NOTIFY to every instance when there is one. One statement is atomic by itself, so a
 * change and its records need no transaction of their own, and cost one round trip.
 *
 * `businessId` is a parameter reference (`$1`); the values of the records are appended to `params`.
 * The statement's main query reads how many deliveries were queued with `queuedSql`.
 */
export function recordsSql(businessId: string, params: unknown[], records: Records, sql: RecordsSql): string {
  const { activity, event } = records;
  if (!activity && !event) return '';
  const value = (v: unknown) => `$${params.push(v)}`;
  const type = event ? value(event.type) : 'NULL';
  const feedPart = event
    ? `${value(event.id)}::uuid, ${type}, ${sql.eventData}, ${sql.eventObject ? `${sql.eventObject.shape}, ${sql.eventObject.values}` : 'NULL, NULL'}`
    : 'NULL, NULL, NULL, NULL, NULL';
  // An activity of its event's type stores none of its own: the activity view reads the event's
  // (0077_activity_row_slimmer.sql), and the purge copies it over before it trims the feed part.
  const activityType = activity && activity.type !== event?.type ? value(activity.type) : 'NULL';
  const activityPart = activity
    ? `${activityType}, ${value(activity.entityType)}, ${sql.entityId}, ${value(activity.actorUserId)}::uuid,
        ${value(activity.actorApiKeyId)}::uuid, ${value(activity.actorQrCodeId)}::uuid, ${sql.activityData}`
    : 'NULL, NULL, NULL, NULL, NULL, NULL, NULL';
  const ctes = [
    /* sql */ `recorded_event AS (
      INSERT INTO events (business_id, id, type, data, object_shape, object_values, activity_type, entity_type,
        entity_id, actor_user_id, actor_api_key_id, actor_qr_code_id, activity_data)
      SELECT ${businessId}, ${feedPart},
        ${activityPart}
      FROM ${sql.from}
      RETURNING id, type, data, created_at
    )`,
  ];
  if (event) {
    ctes.push(
      /* sql */ `recorded_deliveries AS (
      INSERT INTO webhook_deliveries (id, business_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
      SELECT gen_random_uuid(), ${businessId}, e.id, event.id, event.type,
        json_build_object(
          'type', event.type,
          'timestamp', to_char(event.created_at AT TIME ZONE 'UTC', ${UTC_MS}),
          'data', ${sql.eventObject ? `(SELECT ${sql.eventObject.whole} FROM ${sql.from})` : 'event.data'})::text,
        event.created_at
      FROM webhook_endpoints e
      CROSS JOIN recorded_event AS event
      WHERE e.business_id = ${businessId}
        AND e.active
        AND (${type} = ANY (e.events) OR '*' = ANY (e.events))
      RETURNING 1
    )`,
      /* sql */ `recorded_queue AS (
      SELECT count(*)::int AS queued
      FROM recorded_deliveries
    )`,
      /* sql */ `recorded_notice AS (
      SELECT queued, pg_notify(${value(DELIVERY_CHANNEL)}, ${businessId}::text)
      FROM recorded_queue
      WHERE queued > 0
    )`,
    );
  }
  return ctes.join(',\n    ');
}

/**
 * recordsSql's CTEs after a statement's own: comma first, or nothing when the change records nothing
 * (a test's rows, inserted by the service's own statement without its records).
 */
export const andRecordsSql = (recorded: string): string => (recorded ? `,\n    ${recorded}` : '');

/** How many deliveries a statement with `recordsSql` queued (and announced): 0 without an event. */
export const queuedSql = (records: Records): string =>
  records.event ? '(SELECT coalesce(max(queued), 0) FROM recorded_notice)' : '0';

/**
 * Writes an activity row and/or an event (with its deliveries) in one statement; called inside the
 * transaction of the change it records, so they commit or fail together. Answers how many deliveries
 * were queued.
 */
export async function insertRecords(
  db: Queryable,
  businessId: string,
  entry: ActivityEntry | null,
  event: { id: string; type: string; data: unknown } | null,
): Promise<number> {
  const params: unknown[] = [businessId];
  const value = (v: unknown, type: string) => `$${params.push(v)}::${type}`;
  const records: Records = { activity: entry, event };
  const sql: RecordsSql = {
    from: '(VALUES (1)) AS one (n)',
    entityId: entry ? value(entry.entityId, 'uuid') : 'NULL',
    activityData: entry ? value(JSON.stringify(entry.data ?? {}), 'jsonb') : 'NULL',
    eventData: event ? value(JSON.stringify(event.data), 'jsonb') : 'NULL',
  };
  const { rows } = await db.query<{ queued: number }>(
    /* sql */ `
    WITH ${recordsSql('$1::uuid', params, records, sql)}
    SELECT ${queuedSql(records)} AS queued`,
    params,
  );
  return rows[0]!.queued;
}

/**
 * Purges up to `batch` events older than the retention, among each business's `batch` oldest in the feed's order
 * (events_feed_idx: no index of creation times is written with every event, 0050_write_work_indexes.sql),
 * and answers how many. A row without activity is deleted; a row with activity (an entity) keeps it and
 * loses its feed part (0069_one_record_row.sql), which takes it out of the feed's index, so the next batch
 * starts after it; its activity type, stored null when it was the event's (0077), takes the event's.
 * Feed order is creation order but for transactions that overlapped: an event created out of order by a
 * long transaction waits for a later batch. Rows are named by ctid (a TID scan): the table
 * has no index of seq alone.
 */
export async function deleteOldEvents(db: Queryable, retentionDays: number, batch: number): Promise<number> {
  const { rows } = await db.query<{ purged: number }>(
    /* sql */ `
    WITH oldest AS (
      SELECT e.ctid AS at, e.entity_id IS NOT NULL AS kept
      FROM businesses b
      CROSS JOIN LATERAL (
        SELECT ctid, entity_id, created_at
        FROM events
        WHERE business_id = b.id
          AND type IS NOT NULL
        ORDER BY xid, seq
        LIMIT $2
      ) e
      WHERE e.created_at < now() - make_interval(days => $1)
      LIMIT $2
    ),
    trimmed AS (
      UPDATE events
      SET activity_type = coalesce(activity_type, type), id = NULL, type = NULL, data = NULL, object_shape = NULL,
        object_values = NULL
      WHERE ctid = ANY (ARRAY(SELECT at FROM oldest WHERE kept))
        AND type IS NOT NULL
      RETURNING 1
    ),
    deleted AS (
      DELETE FROM events
      WHERE ctid = ANY (ARRAY(SELECT at FROM oldest WHERE NOT kept))
        AND type IS NOT NULL
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM trimmed)::int + (SELECT count(*) FROM deleted)::int AS purged`,
    [retentionDays, batch],
  );
  return rows[0]!.purged;
}

/**
 * The row a statement wrote with its records (`SELECT <columns>, <queuedSql> AS queued`), apart from
 * how many webhook deliveries it queued; null when it wrote none.
 */
export function recordedRow<Row>(rows: (Row & { queued: number })[]): { row: Row; queued: number } | null {
  const first = rows[0];
  if (!first) return null;
  const { queued, ...row } = first;
  return { row: row as Row, queued };
}
