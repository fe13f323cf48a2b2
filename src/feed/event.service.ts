import type { Queryable } from '../db/database.js';
import { HttpError, invalidInput } from '../errors/http-error.js';
import { findEventsAfter, restoredSince, type EventRow, type FeedPosition } from './event.repository.js';

const DAY_MS = 24 * 60 * 60_000;
const START: FeedPosition = { xid: '0', seq: 0 };

/**
 * The opaque cursor: the position of the last event returned, and when that event was written (so a
 * cursor older than the retention is recognised even after its event was purged).
 */
interface Cursor extends FeedPosition {
  at: number;
}

const encodeCursor = (cursor: Cursor) =>
  Buffer.from(JSON.stringify([cursor.xid, cursor.seq, cursor.at])).toString('base64url');

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === 'string' &&
      /^\d{1,20}$/.test(value[0]) &&
      Number.isSafeInteger(value[1]) &&
      Number.isSafeInteger(value[2])
    ) {
      return { xid: value[0], seq: value[1] as number, at: value[2] as number };
    }
  } catch {
    // reported below
  }
  throw invalidInput([{ field: 'after', code: 'unknown_cursor', message: 'not a cursor this service returned' }], {
    input: 'query',
  });
}

export interface FeedPage {
  rows: EventRow[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Oldest first after the cursor; a cursor older than the retention is a 410 (events may be missing). */
export async function readFeed(
  db: Queryable,
  businessId: string,
  query: { after?: string; limit: number; types: readonly string[] | null },
  retentionDays: number,
  now = Date.now(),
): Promise<FeedPage> {
  const after = query.after ? decodeCursor(query.after) : undefined;
  if (after && after.at < now - retentionDays * DAY_MS) {
    throw new HttpError(
      410,
      `This cursor is older than the ${retentionDays}-day event retention, so events after it may be gone. ` +
        'Read the feed again from the start (without after) and reconcile with the lists.',
      'CURSOR_EXPIRED',
    );
  }
  if (after && (await restoredSince(db, businessId, after))) {
    throw new HttpError(
      410,
      'The database was restored from a backup into a new one since this cursor was returned, and events are ' +
        'ordered anew there. Read the feed again from the start (without after) and skip the event ids you have.',
      'CURSOR_EXPIRED',
    );
  }
  const rows = await findEventsAfter(db, businessId, after ?? START, query.types, query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = last
    ? encodeCursor({ xid: last.xid, seq: last.seq, at: last.created_at.getTime() })
    : query.after || null;
  return { rows: page, nextCursor, hasMore };
}
