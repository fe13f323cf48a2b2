-- Accounts that prove who they are: invite and password-reset tokens travel by email only, through
-- an outbox written in the same transaction as the invite or reset and delivered after it commits.

-- Set when the user showed they control the address: a token that reached them by email.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz(3);

CREATE TYPE mail_status AS ENUM ('pending', 'sent', 'failed');

-- One row per message, written in the transaction that caused it and delivered after it commits,
-- with retries (src/mail/mail.sender.ts).
CREATE TABLE mail_outbox (
  id              uuid PRIMARY KEY,
  recipient       text NOT NULL,
  subject         text NOT NULL,
  -- The bodies carry a one-time token: they are erased once the message is sent or given up on.
  text_body       text,
  html_body       text,
  status          mail_status NOT NULL DEFAULT 'pending',
  attempts        integer NOT NULL DEFAULT 0,
  -- When a sender may take it next. A new message is sent at once by the instance that wrote it, so
  -- this starts a little later: other instances pick it up only if that one failed to.
  next_attempt_at timestamptz(3) NOT NULL,
  -- Never sent after this: the token it carries has expired by then.
  expires_at      timestamptz(3) NOT NULL,
  last_error      text,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  sent_at         timestamptz(3)
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at);

-- The invite's message, whose status GET .../team shows. token_shown: the token was returned to the
-- inviter (development mail mode), so accepting it proves nothing about the address.
ALTER TABLE team_invites
  ADD COLUMN mail_id uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  ADD COLUMN token_shown boolean NOT NULL DEFAULT false;

-- Every open invite made before this migration had its token returned to whoever invited, an API
-- key included: accepting it would let them choose the invitee's password. They are cancelled; the
-- business invites again, and the new token goes by email.
UPDATE team_invites
SET cancelled_at = now(),
  token_shown = true
WHERE accepted_at IS NULL
  AND cancelled_at IS NULL;

CREATE TABLE password_resets (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_digest bytea NOT NULL UNIQUE,
  mail_id      uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  used_at      timestamptz(3)
);
CREATE INDEX password_resets_live_idx ON password_resets (user_id, expires_at) WHERE used_at IS NULL;
