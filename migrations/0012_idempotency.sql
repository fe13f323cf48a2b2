-- Responses to requests sent with an Idempotency-Key (docs/idempotency.md). A row is written in the
-- transaction of the write it describes, so it exists exactly when that write committed.
CREATE TABLE idempotency_keys (
  -- sha256 of the credential, method, path and key: the key itself is never stored.
  scope        bytea PRIMARY KEY,
  -- sha256 of the method, the URL and the canonical JSON body.
  fingerprint  bytea NOT NULL,
  status       smallint NOT NULL,
  content_type text,
  location     text,
  body         text,
  created_at   timestamptz NOT NULL
);

-- The purge deletes the oldest rows first, a small batch at a time.
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
