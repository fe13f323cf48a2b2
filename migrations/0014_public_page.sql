-- The public feedback page behind every QR code (issue 15): votes, and scans counted per day.

-- One row per voter and suggestion. A voter is known only by a digest: of the anonymous cookie token
-- of a browser on the page, or of the email or external id an integrator voted for. The email and
-- external id themselves are kept for the API that added them (never for an anonymous vote).
CREATE TABLE votes (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  suggestion_id     uuid NOT NULL REFERENCES suggestions (id) ON DELETE CASCADE,
  voter_digest      bytea NOT NULL,
  voter_type        text NOT NULL CHECK (voter_type IN ('anonymous', 'email', 'external_id')),
  voter_email       text,
  voter_external_id text,
  voter_name        text CHECK (length(voter_name) <= 200),
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (suggestion_id, voter_digest)
);
CREATE INDEX votes_suggestion_idx ON votes (business_id, suggestion_id, created_at, id);

-- Page opens per QR code and UTC day, added in batches by the service (never a write per view).
CREATE TABLE qr_code_scans (
  qr_code_id  uuid NOT NULL REFERENCES qr_codes (id) ON DELETE CASCADE,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  day         date NOT NULL,
  scans       bigint NOT NULL CHECK (scans >= 0),
  PRIMARY KEY (qr_code_id, day)
);
CREATE INDEX qr_code_scans_business_idx ON qr_code_scans (business_id, day);

-- The page lists a business's visible suggestions newest first or by votes.
CREATE INDEX suggestions_public_idx ON suggestions (business_id, created_at, id)
  WHERE visibility = 'public' AND review_state IN ('not_required', 'approved') AND status <> 'rejected';
