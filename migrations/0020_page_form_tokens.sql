-- The public page's form tokens that have sent feedback (issue 28): each token sends feedback once.
-- A row is written in the transaction of the suggestion it sent, so it exists exactly when that
-- suggestion does; rows are pruned a few at a time by later posts once the token has expired.
CREATE TABLE page_form_tokens (
  -- sha256 of the token: the token itself is never stored.
  digest          bytea PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  -- What the first post answered, for a repeated post to answer the same (no foreign key: the
  -- suggestion may be deleted while the token is still kept).
  suggestion_id   uuid NOT NULL,
  awaiting_review boolean NOT NULL,
  -- When the token stops being accepted anyway: the row is no longer needed.
  expires_at      timestamptz NOT NULL
);
CREATE INDEX page_form_tokens_expires_at_idx ON page_form_tokens (expires_at);
CREATE INDEX page_form_tokens_business_idx ON page_form_tokens (business_id);
