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

/**
 * Takes up to `limit` due deliveries of active endpoints and pushes each one's next attempt `leaseMs`
 * ahead: other workers skip the rows while they are locked and leave them alone during the lease, and
 * take them again after it if this worker died while sending.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  limit: number,
  leaseMs: number,
  businessId: string | null = null,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    /* sql */ `
    UPDATE webhook_deliveries AS d
    SET attempts = d.attempts + 1,
        next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000)
    FROM webhook_endpoints AS e
    WHERE d.id IN (
        SELECT due.id
        FROM webhook_deliveries AS due
        JOIN webhook_endpoints AS target ON target.id = due.endpoint_id
        WHERE due.status = 'pending'
          AND due.next_attempt_at <= $1::timestamptz
          AND target.active
          AND ($4::uuid IS NULL OR due.business_id = $4::uuid)
        ORDER BY due.next_attempt_at
        LIMIT $3
        FOR UPDATE OF due SKIP LOCKED
      )
      AND e.id = d.endpoint_id
    RETURNING d.id, d.business_id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.attempts,
      e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
    [now, leaseMs, limit, businessId],
  );
  return rows;
}

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Records an attempt: `succeeded`, `failed` (given up), or still `pending` until `nextAttemptAt`. A
 * success clears the endpoint's failing streak; a failure starts one if none is running.
 */
export async function recordAttempt(
  db: Queryable,
  delivery: { id: string; endpointId: string },
  now: Date,
  outcome: AttemptOutcome,
  next: { status: 'succeeded' | 'failed' | 'pending'; nextAttemptAt: Date | null },
): Promise<{ failingSince: Date | null }> {
  await db.query(
    /* sql */ `
    UPDATE webhook_deliveries
    SET status = $2,
        next_attempt_at = $3,
        last_attempt_at = $4,
        last_status_code = $5,
        last_duration_ms = $6,
        last_error = $7
    WHERE id = $1`,
    [delivery.id, next.status, next.nextAttemptAt, now, outcome.statusCode, outcome.durationMs, outcome.error],
  );
  const { rows } = await db.query<{ failing_since: Date | null }>(
    /* sql */ `
    UPDATE webhook_endpoints
    SET failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(failing_since, $3::timestamptz) END
    WHERE id = $1
    RETURNING failing_since`,
    [delivery.endpointId, next.status === 'succeeded', now],
  );
  return { failingSince: rows[0]?.failing_since ?? null };
}

/** Turns an endpoint off for the service's reason; answers whether it was still on. */
export async function disableEndpoint(db: Queryable, endpointId: string, reason: 'gone' | 'failing'): Promise<boolean> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE webhook_endpoints
    SET active = false,
        disabled_reason = $2,
        updated_at = clock_timestamp()
    WHERE id = $1
      AND active`,
    [endpointId, reason],
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
