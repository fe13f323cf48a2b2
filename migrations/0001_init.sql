-- The whole data model of the spec. Enum types are declared in the spec's order, so ordering by
-- an enum column (sort=priority) follows low < medium < high < critical.
-- Timestamps are timestamptz(3): stored at millisecond precision, exactly what the API returns,
-- so a value read back and sent as `since` selects exactly what it should.

CREATE TYPE plan_tier AS ENUM ('free', 'starter', 'business', 'enterprise');
CREATE TYPE member_role AS ENUM ('owner', 'admin', 'member');
CREATE TYPE key_scope AS ENUM ('read', 'write');
CREATE TYPE suggestion_status AS ENUM ('pending', 'reviewing', 'in_progress', 'completed', 'rejected');
CREATE TYPE issue_status AS ENUM ('open', 'assigned', 'in_progress', 'resolved', 'closed');
CREATE TYPE priority AS ENUM ('low', 'medium', 'high', 'critical');
CREATE TYPE sentiment AS ENUM ('positive', 'neutral', 'negative');
CREATE TYPE visibility AS ENUM ('internal', 'public');
-- not_required: internal, or public on a business without approval; pending: waits for review.
CREATE TYPE review_state AS ENUM ('not_required', 'pending', 'approved', 'rejected');
CREATE TYPE entry_source AS ENUM ('api', 'dashboard', 'qr_code', 'public_page', 'import');
CREATE TYPE entity_type AS ENUM ('suggestion', 'issue');

CREATE TABLE businesses (
  id                uuid PRIMARY KEY,
  name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  plan              plan_tier NOT NULL DEFAULT 'business',
  approval_required boolean NOT NULL DEFAULT false,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  updated_at        timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id            uuid PRIMARY KEY,
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name          text,
  -- argon2id; null for a user who has not set a password yet (cannot log in)
  password_hash text,
  created_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role        member_role NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE sessions (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_digest bytea NOT NULL UNIQUE,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  revoked_at   timestamptz(3)
);

CREATE TABLE locations (
  id          uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (business_id, id)
);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  scope        key_scope NOT NULL DEFAULT 'read',
  -- SHA-256 of the full key; the key itself is never stored
  digest       bytea NOT NULL UNIQUE,
  -- shown in listings: fbk_ and the first 8 random characters
  prefix       text NOT NULL,
  created_by   uuid NOT NULL REFERENCES users (id),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  last_used_at timestamptz(3),
  revoked_at   timestamptz(3)
);
CREATE INDEX api_keys_business_idx ON api_keys (business_id, created_at);

CREATE TABLE suggestions (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  content         text NOT NULL CHECK (length(content) BETWEEN 1 AND 2000),
  status          suggestion_status NOT NULL DEFAULT 'pending',
  priority        priority NOT NULL DEFAULT 'medium',
  sentiment       sentiment NOT NULL,
  sentiment_score real NOT NULL,
  customer_name   text,
  customer_email  text,
  is_anonymous    boolean NOT NULL,
  upvote_count    integer NOT NULL DEFAULT 0 CHECK (upvote_count >= 0),
  visibility      visibility NOT NULL DEFAULT 'internal',
  review_state    review_state NOT NULL DEFAULT 'not_required',
  location_id     uuid,
  source          entry_source NOT NULL DEFAULT 'api',
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now(),
  -- a location of another business can never be attached
  FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id)
);
-- Every list sort, within one business, with id as the tie-breaker; filters use the leading column.
CREATE INDEX suggestions_created_idx ON suggestions (business_id, created_at, id);
CREATE INDEX suggestions_updated_idx ON suggestions (business_id, updated_at, id);
CREATE INDEX suggestions_status_idx ON suggestions (business_id, status, created_at, id);
CREATE INDEX suggestions_priority_idx ON suggestions (business_id, priority, created_at, id);
CREATE INDEX suggestions_sentiment_idx ON suggestions (business_id, sentiment, created_at, id);
CREATE INDEX suggestions_upvotes_idx ON suggestions (business_id, upvote_count, id);
CREATE INDEX suggestions_score_idx ON suggestions (business_id, sentiment_score, id);

CREATE TABLE issues (
  id             uuid PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  title          text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  description    text NOT NULL DEFAULT '' CHECK (length(description) <= 10000),
  status         issue_status NOT NULL DEFAULT 'open',
  priority       priority NOT NULL DEFAULT 'medium',
  assignee_id    uuid,
  customer_name  text,
  customer_email text,
  is_anonymous   boolean NOT NULL,
  location_id    uuid,
  source         entry_source NOT NULL DEFAULT 'dashboard',
  resolved_at    timestamptz(3),
  created_at     timestamptz(3) NOT NULL DEFAULT now(),
  updated_at     timestamptz(3) NOT NULL DEFAULT now(),
  -- the assignee must be a member of the same business
  FOREIGN KEY (business_id, assignee_id) REFERENCES memberships (business_id, user_id),
  FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id)
);
CREATE INDEX issues_created_idx ON issues (business_id, created_at, id);
CREATE INDEX issues_updated_idx ON issues (business_id, updated_at, id);
CREATE INDEX issues_status_idx ON issues (business_id, status, created_at, id);
CREATE INDEX issues_priority_idx ON issues (business_id, priority, created_at, id);
CREATE INDEX issues_resolved_idx ON issues (business_id, resolved_at, id);
CREATE INDEX issues_assignee_idx ON issues (business_id, assignee_id, created_at, id);

CREATE TABLE comments (
  id          uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  entity_type entity_type NOT NULL,
  entity_id   uuid NOT NULL,
  content     text NOT NULL,
  author_id   uuid NOT NULL REFERENCES users (id),
  -- the key that wrote it, when it came through the API
  api_key_id  uuid REFERENCES api_keys (id),
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX comments_entity_idx ON comments (business_id, entity_type, entity_id, created_at, id);

CREATE TABLE qr_codes (
  id          uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  -- the short code in the public feedback URL
  code        text NOT NULL UNIQUE,
  label       text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
  location_id uuid,
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at  timestamptz(3) NOT NULL DEFAULT now(),
  FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id)
);
CREATE INDEX qr_codes_business_idx ON qr_codes (business_id, created_at, id);

CREATE TABLE team_invites (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  email        text NOT NULL,
  role         member_role NOT NULL,
  token_digest bytea NOT NULL UNIQUE,
  invited_by   uuid NOT NULL REFERENCES users (id),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  accepted_at  timestamptz(3),
  cancelled_at timestamptz(3)
);
-- at most one open invite per email and business
CREATE UNIQUE INDEX team_invites_pending_key ON team_invites (business_id, lower(email))
  WHERE accepted_at IS NULL AND cancelled_at IS NULL;

-- One row per create, update and comment, written in the same transaction as the change.
CREATE TABLE activity (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  type             text NOT NULL,
  entity_type      text NOT NULL,
  entity_id        uuid NOT NULL,
  actor_user_id    uuid REFERENCES users (id),
  actor_api_key_id uuid REFERENCES api_keys (id),
  data             jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX activity_business_idx ON activity (business_id, created_at DESC, id DESC);
