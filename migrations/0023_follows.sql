-- Customers following a suggestion by email from the public page (issue 32, docs/notifications.md).
-- A follow is unconfirmed until its address confirms (double opt-in): nothing but that one
-- confirmation is ever sent to it, and it is deleted when it is still unconfirmed after 7 days.
CREATE TABLE suggestion_follows (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  suggestion_id uuid NOT NULL REFERENCES suggestions (id) ON DELETE CASCADE,
  -- the QR code whose page it was followed from: where its messages link to
  qr_code_id    uuid REFERENCES qr_codes (id) ON DELETE SET NULL,
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  -- Signs this follow's links (confirm, unsubscribe) with HMAC-SHA256: random per follow and kept,
  -- so a link in an old message still works after a restart, and no other follow's link can be made.
  link_key      bytea NOT NULL,
  confirmed_at  timestamptz(3),
  created_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX suggestion_follows_address_key ON suggestion_follows (business_id, suggestion_id, lower(email));
CREATE INDEX suggestion_follows_email_idx ON suggestion_follows (business_id, lower(email));
CREATE INDEX suggestion_follows_unconfirmed_idx ON suggestion_follows (created_at) WHERE confirmed_at IS NULL;

-- Confirmed followers, moved by the statement that confirms or removes a follow (like upvote_count).
ALTER TABLE suggestions
  ADD COLUMN follower_count integer NOT NULL DEFAULT 0 CHECK (follower_count >= 0);

-- Extra headers of a message (List-Unsubscribe, RFC 8058): erased with the bodies once it is sent.
ALTER TABLE mail_outbox
  ADD COLUMN headers jsonb;
