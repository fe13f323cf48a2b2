import { isoText } from '../db/columns.js';
import type { Queryable } from '../db/database.js';
import { recordsSql, queuedSql, type Records, recordedRow } from '../outbox/outbox.repository.js';
import { SUGGESTION_COLUMNS as COLUMNS, suggestionEventSql, type SuggestionRow } from './suggestion.repository.js';

/** The new reply: its content, or null to remove it. */
export interface ReplyChange {
  content: string | null;
  /** The replying user, whose name signs it; null (an API key) signs with the business's name. */
  authorUserId: string | null;
}

/**
 * Sets, changes or removes a suggestion's reply and stamps updated_at, with its records in the same
 * statement: the event's object read from the changed row, its changes `{reply: {from, to}}` with
 * `from` as the caller read it under its lock. A changed reply keeps its created_at. Null when there
 * is no such suggestion.
 */
export async function updateRecordedReply(
  db: Queryable,
  businessId: string,
  id: string,
  change: ReplyChange,
  records: Records,
  before: unknown,
): Promise<{ row: SuggestionRow; queued: number } | null> {
  const params: unknown[] = [businessId, id, change.content, change.authorUserId, JSON.stringify(before)];
  const recorded = recordsSql('$1::uuid', params, records, {
    from: 'changed',
    entityId: 'id',
    activityData: `jsonb_build_object('from', jsonb_build_object('reply', $5::jsonb), 'to', jsonb_build_object('reply', reply))`,
    ...suggestionEventSql(`jsonb_build_object('reply', jsonb_build_object('from', $5::jsonb, 'to', reply))`),
  });
  // one instant, whole milliseconds: the reply's updated_at is the suggestion's
  const now = isoText('(SELECT at FROM stamp)');
  const { rows } = await db.query<SuggestionRow & { queued: number }>(
    /* sql */ `
    WITH stamp AS (
      SELECT date_trunc('milliseconds', clock_timestamp()) AS at
    ),
    changed AS (
      UPDATE suggestions s
      SET reply = CASE
            WHEN $3::text IS NULL THEN NULL
            ELSE jsonb_build_object(
              'content', $3::text,
              'author_name', (
                SELECT COALESCE(u.name, b.name)
                FROM businesses b
                LEFT JOIN users u ON u.id = $4::uuid
                WHERE b.id = $1),
              'created_at', COALESCE(s.reply ->> 'created_at', ${now}),
              'updated_at', ${now})
          END,
          updated_at = (SELECT at FROM stamp)
      WHERE s.business_id = $1
        AND s.id = $2
      RETURNING ${COLUMNS}
    ),
    ${recorded}
    SELECT ${COLUMNS}, ${queuedSql(records)} AS queued
    FROM changed`,
    params,
  );
  return recordedRow(rows);
}
