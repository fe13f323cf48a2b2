-- Events out (docs/events.md): one event per change, written in the transaction of the change, read
-- by the feed (GET .../events) and pushed to webhook endpoints through a durable delivery queue.

-- `seq` orders events within one transaction; `xid` is the writing transaction's id. The feed reads
-- in (xid, seq) order and only below the oldest transaction still running, so an event that commits
-- late can never land behind a cursor a client already holds.
CREATE TABLE events (
  seq         bigserial PRIMARY KEY,
  id          uuid NOT NULL UNIQUE,
  xid         xid8 NOT NULL DEFAULT pg_current_xact_id(),
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX events_feed_idx ON events (business_id, xid, seq);
CREATE INDEX events_created_idx ON events (created_at);

CREATE TABLE webhook_endpoints (
  id                        uuid PRIMARY KEY,
  business_id               uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  url                       text NOT NULL,
  -- Event types it receives; '*' is every type.
  events                    text[] NOT NULL,
  description               text,
  active                    boolean NOT NULL DEFAULT true,
  -- Why the service turned it off: 'gone' (a 410) or 'failing' (5 days of failures); null otherwise.
  disabled_reason           text,
  secret                    text NOT NULL,
  -- After a rotation the old secret signs beside the new one until it expires.
  previous_secret           text,
  previous_secret_expires_at timestamptz(3),
  -- The first failure since the last success: 5 days later the endpoint is disabled.
  failing_since             timestamptz(3),
  created_at                timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_business_idx ON webhook_endpoints (business_id, created_at, id);

-- One row per event and endpoint, created in the event's transaction. Workers claim due rows with
-- FOR UPDATE SKIP LOCKED and push next_attempt_at forward as a lease while sending.
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         uuid NOT NULL,
  event_type       text NOT NULL,
  -- The exact body sent on every attempt: {type, timestamp, data}.
  payload          text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz(3),
  last_attempt_at  timestamptz(3),
  last_status_code integer,
  last_duration_ms integer,
  last_error       text,
  created_at       timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
