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
 * Takes up to `limit` due deliveries of active endpoints, at most `perEndpoint` in flight per endpoint
 * with those this worker is already sending, and pushes each one's next attempt `leaseMs` ahead: other
 * workers skip the rows while they are locked and leave them alone during the lease, and take them
 * again after it if this worker died while sending.
 *
 * Endpoint by endpoint, so that no backlog stands in front of another endpoint's delivery: the
 * endpoints with pending deliveries are found one index descent each (a loose scan of
 * `webhook_deliveries_endpoint_due_idx`, migration 0031), which also gives each one's oldest pending
 * delivery; those with room and a due delivery are taken oldest head first, and each gives its oldest
 * due rows up to its room. The cost grows with the endpoints that have pending deliveries, never with
 * how many each has: a scan of the due rows in time order, skipping those of endpoints at their limit,
 * walked the whole backlog of a neighbour whose endpoints hang on every claim (3 ms a claim at 3,000
 * rows, 7 at 10,000; 0.6 ms this way), and the worker, which claims as each send ends, fell behind.
 */
export async function claimDueDeliveries(db: Queryable, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, limit, leaseMs, perEndpoint, sending, businessIds } = options;
  const { rows } = await db.query<ClaimedDelivery>(
    /* sql */ `
    WITH RECURSIVE head AS (
      (SELECT endpoint_id, next_attempt_at
       FROM webhook_deliveries
       WHERE status = 'pending'
       ORDER BY endpoint_id, next_attempt_at
       LIMIT 1)
      UNION ALL
      SELECT next.endpoint_id, next.next_attempt_at
      FROM head
      CROSS JOIN LATERAL (
        SELECT d.endpoint_id, d.next_attempt_at
        FROM webhook_deliveries AS d
        WHERE d.status = 'pending'
          AND d.endpoint_id > head.endpoint_id
        ORDER BY d.endpoint_id, d.next_attempt_at
        LIMIT 1
      ) AS next
    ),
    ready AS (
      SELECT head.endpoint_id,
        $7::integer - COALESCE(($6::integer[])[array_position($5::uuid[], head.endpoint_id)], 0) AS room
      FROM head
      JOIN webhook_endpoints AS target ON target.id = head.endpoint_id
      WHERE head.next_attempt_at <= $1::timestamptz
        AND target.active
        AND ($4::uuid[] IS NULL OR target.business_id = ANY ($4::uuid[]))
        AND COALESCE(($6::integer[])[array_position($5::uuid[], head.endpoint_id)], 0) < $7::integer
      ORDER BY head.next_attempt_at
      LIMIT $3
    )
    UPDATE webhook_deliveries AS d
    SET attempts = d.attempts + 1,
        next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000)
    FROM webhook_endpoints AS e
    WHERE d.id IN (
        SELECT due.id
        FROM ready
        CROSS JOIN LATERAL (
          SELECT c.id, c.next_attempt_at
          FROM webhook_deliveries AS c
          WHERE c.endpoint_id = ready.endpoint_id
            AND c.status = 'pending'
            AND c.next_attempt_at <= $1::timestamptz
          ORDER BY c.next_attempt_at, c.id
          LIMIT ready.room
          FOR UPDATE SKIP LOCKED
        ) AS due
        ORDER BY due.next_attempt_at
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
