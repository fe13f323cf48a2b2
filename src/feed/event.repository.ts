import { RESTORED_XID } from '../db/backup.js';
import type { Queryable } from '../db/database.js';
import type { EventData } from '../outbox/event.types.js';
import { EVENT_DATA_SQL } from '../outbox/outbox.repository.js';

export interface EventRow {
  id: string;
  business_id: string;
  type: string;
  data: EventData;
  created_at: Date;
  /** The writing transaction's id (xid8, as text) and the order within it: the feed's position. */
  xid: string;
  seq: number;
}

/** A place in the feed: after the event at (xid, seq). */
export interface FeedPosition {
  xid: string;
  seq: number;
}

/**
 * `xid` is selected as text (an xid8 has no JavaScript type). Sorting and comparing must use the
 * column itself, `events.xid`: a bare ORDER BY name means the output column, and would sort the text
 * ("1000" before "999").
 */
const COLUMNS = `seq, id, xid::text AS xid, business_id, type, ${EVENT_DATA_SQL} AS data, created_at`;

/**
 * Events after `after`, oldest first (rows of `events` with a feed part: 0069_one_record_row.sql), among those no running transaction can still add to: only
 * transactions older than the oldest one running (the snapshot's xmin) are final, and every later
 * event sorts after them, so a cursor never skips one that commits late.
 */
export async function findEventsAfter(
  db: Queryable,
  businessId: string,
  after: FeedPosition,
  types: readonly string[] | null,
  limit: number,
): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    /* sql */ `
    SELECT ${COLUMNS}
    FROM events
    WHERE business_id = $1
      AND type IS NOT NULL
      AND events.xid < pg_snapshot_xmin(pg_current_snapshot())
      AND (events.xid, events.seq) > ($2::xid8, $3::bigint)
      AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
    ORDER BY events.xid, events.seq
    LIMIT $5`,
    [businessId, after.xid, after.seq, types, limit],
  );
  return rows;
}

/**
 * Whether a restore renumbered this business's feed after the cursor's event was written: some event
 * at or after its seq carries the restored transaction id (backup.ts), which the cursor does not.
 */
export async function restoredSince(db: Queryable, businessId: string, after: FeedPosition): Promise<boolean> {
  if (after.xid === RESTORED_XID) return false;
  const { rows } = await db.query<{ restored: boolean }>(
    `SELECT EXISTS (
      SELECT 1 FROM events WHERE business_id = $1 AND type IS NOT NULL AND xid = $2::xid8 AND seq >= $3
    ) AS restored`,
    [businessId, RESTORED_XID, after.seq],
  );
  return rows[0]!.restored;
}
