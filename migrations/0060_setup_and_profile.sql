-- First run in the browser, self-service sign-up and the profile (issue 44, items 1 and 2).

-- One-time links to /app/setup, printed at start-up and by `admin setup-link` while no business
-- exists: the database keeps the token's digest only; a link works once, and only until it expires.
CREATE TABLE setup_tokens (
  id           uuid PRIMARY KEY,
  token_digest bytea NOT NULL UNIQUE,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  used_at      timestamptz(3)
);

-- Emailed confirmations: a sign-up (a new business and its owner, created on confirmation) or an
-- email change (applied on confirmation). The token travels by email only; its digest is kept.
CREATE TABLE email_confirmations (
  id            uuid PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('signup', 'email_change')),
  token_digest  bytea NOT NULL UNIQUE,
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  -- email_change: whose address changes. signup: null.
  user_id       uuid REFERENCES users (id) ON DELETE CASCADE,
  -- signup: the business's name, the owner's name and the argon2id hash of their password.
  business_name text,
  user_name     text,
  password_hash text,
  mail_id       uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  expires_at    timestamptz(3) NOT NULL,
  used_at       timestamptz(3)
);
CREATE INDEX email_confirmations_email_idx ON email_confirmations (lower(email), created_at);

-- Where and when a session was last used (the profile lists them): written at most once a minute.
ALTER TABLE sessions
  ADD COLUMN last_used_at timestamptz(3),
  ADD COLUMN last_ip text,
  ADD COLUMN last_user_agent text;
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;
