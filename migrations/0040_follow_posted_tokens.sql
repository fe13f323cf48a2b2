-- A `posted_token` (docs/notifications.md) lets the customer who posted a suggestion follow it while
-- it awaits review; it starts one follow, once. Its use is recorded here, one row per suggestion (a
-- suggestion has one posted_token): a second use, one after the other or at the same time, meets the
-- primary key and is refused, whichever address it names.
CREATE TABLE follow_posted_uses (
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  suggestion_id uuid NOT NULL REFERENCES suggestions (id) ON DELETE CASCADE,
  used_at       timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, suggestion_id)
);
