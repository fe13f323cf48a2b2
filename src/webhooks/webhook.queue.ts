import type { Queryable } from '../db/database.js';

/**
 * The delivery queue as the worker sees it: claims with a lease, and the outcome of each attempt.
 * Times come from the worker's clock (`$n::timestamptz`), never from now(), so tests can move it.
 */

export interface ClaimedDelivery {
  id: string;
  business_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  /** This attempt's number, from 1. */
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** What the claiming worker is sending now, per endpoint: endpoints at their limit are passed over. */
export interface Sending {
  endpointIds: string[];
  counts: number[];
}

export interface ClaimOptions {
  now: Date;
  /** Deliveries to take at most. */
  limit: number;
  leaseMs: number;
  /** Deliveries one endpoint may have in flight at once, counting those in `sending`. */
  perEndpoint: number;
  sending: Sending;
  /** Only these businesses' deliveries (tests); null: all. */
  businessIds: readonly string[] | null;
}

/**
 * Due rows looked at per claim, oldest first: several times the claim's size, so that an endpoint at
 * its limit with a long backlog cannot hide the others' deliveries behind its own.
 */
const SCAN_FACTOR = 8;

/**
 * Takes up to `limit` due deliveries of active endpoints, at most `perEndpoint` in flight per endpoint
 * with those this worker is already sending, and pushes each one's next attempt `leaseMs` ahead: other
 * workers skip the rows while they are locked and leave them alone during the lease, and take them
 * again after it if this worker died while sending. Endpoints already at their limit are passed over
 * in the scan, so a slow endpoint's backlog never stands in front of another endpoint's delivery.
 */
export async function claimDueDeliveries(db: Queryable, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, limit, leaseMs, perEndpoint, sending, businessIds } = options;
  const { rows } = await db.query<ClaimedDelivery>(
    /* sql */ `
    UPDATE webhook_deliveries AS d
    SET attempts = d.attempts + 1,
        next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000)
    FROM webhook_endpoints AS e
    WHERE d.id IN (
        SELECT ranked.id
        FROM (
          SELECT candidate.id, candidate.next_attempt_at, candidate.room,
            row_number() OVER (PARTITION BY candidate.endpoint_id ORDER BY candidate.next_attempt_at, candidate.id)
              AS place
          FROM (
            SELECT due.id, due.endpoint_id, due.next_attempt_at,
              $7::integer - COALESCE(($6::integer[])[array_position($5::uuid[], due.endpoint_id)], 0) AS room
            FROM webhook_deliveries AS due
            JOIN webhook_endpoints AS target ON target.id = due.endpoint_id
            WHERE due.status = 'pending'
              AND due.next_attempt_at <= $1::timestamptz
              AND target.active
              AND ($4::uuid[] IS NULL OR due.business_id = ANY ($4::uuid[]))
              AND COALESCE(($6::integer[])[array_position($5::uuid[], due.endpoint_id)], 0) < $7::integer
            ORDER BY due.next_attempt_at
            LIMIT $3::integer * ${SCAN_FACTOR}
            FOR UPDATE OF due SKIP LOCKED
          ) AS candidate
        ) AS ranked
        WHERE ranked.place <= ranked.room
        ORDER BY ranked.next_attempt_at
        LIMIT $3
      )
      AND e.id = d.endpoint_id
    RETURNING d.id, d.business_id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.attempts,
      e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
    [now, leaseMs, limit, businessIds, sending.endpointIds, sending.counts, perEndpoint],
  );
  return rows;
}

/** One attempt's result: `succeeded`, `failed` (given up), or still `pending` until `nextAttemptAt`. */
export interface AttemptRecord {
  deliveryId: string;
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Records a batch's attempts, all made at `now`, in one statement: per delivery a worker would
 * otherwise take a pool connection twice, and every delivery of an endpoint would queue on its row.
 * An endpoint is reachable if any of its attempts succeeded: that clears its failing streak; if all
 * failed, a streak starts at `now` unless one is running. Only rows whose streak changes are written,
 * locked in id order so that two workers recording overlapping endpoints cannot deadlock. Answers,
 * for each endpoint whose attempts all failed, when its streak started.
 */
export async function recordAttempts(db: Queryable, now: Date, attempts: AttemptRecord[]): Promise<Map<string, Date>> {
  const { rows } = await db.query<{ endpoint_id: string; failing_since: Date | null }>(
    /* sql */ `
    WITH attempt AS (
      SELECT id, status, next_attempt_at, status_code, duration_ms, error
      FROM unnest($2::uuid[], $3::text[], $4::timestamptz[], $5::integer[], $6::integer[], $7::text[])
        AS a (id, status, next_attempt_at, status_code, duration_ms, error)
    ),
    recorded AS (
      UPDATE webhook_deliveries AS d
      SET status = a.status,
          next_attempt_at = a.next_attempt_at,
          last_attempt_at = $1::timestamptz,
          last_status_code = a.status_code,
          last_duration_ms = a.duration_ms,
          last_error = a.error
      FROM attempt AS a
      WHERE d.id = a.id
      RETURNING d.endpoint_id, a.status = 'succeeded' AS succeeded
    ),
    verdict AS (
      SELECT endpoint_id, bool_or(succeeded) AS reachable
      FROM recorded
      GROUP BY endpoint_id
    ),
    turning AS MATERIALIZED (
      SELECT e.id, v.reachable
      FROM webhook_endpoints AS e
      JOIN verdict AS v ON v.endpoint_id = e.id
      WHERE (v.reachable AND e.failing_since IS NOT NULL)
         OR (NOT v.reachable AND e.failing_since IS NULL)
      ORDER BY e.id
      FOR UPDATE OF e
    ),
    turned AS (
      UPDATE webhook_endpoints AS e
      SET failing_since = CASE WHEN t.reachable THEN NULL ELSE $1::timestamptz END
      FROM turning AS t
      WHERE e.id = t.id
      RETURNING e.id, e.failing_since
    )
    SELECT v.endpoint_id, COALESCE(t.failing_since, e.failing_since) AS failing_since
    FROM verdict AS v
    JOIN webhook_endpoints AS e ON e.id = v.endpoint_id
    LEFT JOIN turned AS t ON t.id = v.endpoint_id
    WHERE NOT v.reachable`,
    [
      now,
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.status),
      attempts.map((a) => a.nextAttemptAt),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.durationMs),
      attempts.map((a) => a.error),
    ],
  );
  const streaks = new Map<string, Date>();
  // Null only when another worker started the streak after this statement's snapshot: it was just now.
  for (const row of rows) if (row.failing_since) streaks.set(row.endpoint_id, row.failing_since);
  return streaks;
}

/**
 * Turns an endpoint off for the service's reason; answers whether it was still on. As `failing` only
 * while its streak still started by `failingSince`: a success recorded meanwhile (another attempt,
 * another worker) has ended it.
 */
export async function disableEndpoint(
  db: Queryable,
  endpointId: string,
  reason: 'gone' | 'failing',
  failingSince: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE webhook_endpoints
    SET active = false,
        disabled_reason = $2,
        updated_at = clock_timestamp()
    WHERE id = $1
      AND active
      AND ($2 = 'gone' OR failing_since <= $3::timestamptz)`,
    [endpointId, reason, failingSince],
  );
  return rowCount === 1;
}

/** Removes finished deliveries older than the retention, in one small batch. */
export async function deleteOldDeliveries(db: Queryable, retentionDays: number, batch: number): Promise<number> {
  const { rowCount } = await db.query(
    /* sql */ `
    DELETE FROM webhook_deliveries
    WHERE id IN (
      SELECT id
      FROM webhook_deliveries
      WHERE status <> 'pending'
        AND created_at < now() - make_interval(days => $1)
      LIMIT $2
    )`,
    [retentionDays, batch],
  );
  return rowCount ?? 0;
}
