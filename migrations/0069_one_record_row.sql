-- A change's activity row and its event are one row of `events` (issue 41, docs/decisions.md "What a
-- write costs", "One row for a change's activity and its event"): a create or a vote wrote two heap
-- rows, each with its header, its business id and time, and four index entries; now one row, whose
-- feed part (id, type, data, object) is null when the change publishes no event, and whose activity
-- part (activity_type and the columns after it) is null when it records no activity.
--
-- The purge of events past their retention deletes a row without activity and trims the feed part of a
-- row with it (outbox.repository.ts, deleteOldEvents): activity is kept as long as it was before.
ALTER TABLE events
  ALTER COLUMN id DROP NOT NULL,
  ALTER COLUMN type DROP NOT NULL,
  ALTER COLUMN data DROP NOT NULL,
  ADD COLUMN activity_type text,
  ADD COLUMN entity_type text,
  ADD COLUMN entity_id uuid,
  -- No foreign keys to users and api_keys: nothing deletes either (a business's deletion cascades from
  -- businesses), and each key was a row lock on the actor, a WAL record of 54 bytes on every write.
  ADD COLUMN actor_user_id uuid,
  ADD COLUMN actor_api_key_id uuid,
  -- Kept: a deleted QR code leaves its activity credited to nobody, as before; a public-page write only.
  ADD COLUMN actor_qr_code_id uuid REFERENCES qr_codes (id) ON DELETE SET NULL,
  ADD COLUMN activity_data jsonb;

-- The feed reads only rows in it; the purge walks this index per business (it trims a row out of it).
DROP INDEX events_feed_idx;
CREATE INDEX events_feed_idx ON events (business_id, xid, seq) WHERE type IS NOT NULL;

-- The activity's two reads (analytics.repository.ts): a business's recent activity, an entity's history.
CREATE INDEX events_activity_idx ON events (business_id, created_at DESC, seq DESC) WHERE activity_type IS NOT NULL;
CREATE INDEX events_entity_idx ON events (business_id, entity_type, entity_id, created_at, seq)
  WHERE activity_type IS NOT NULL;

-- The activity written so far, in its order (its ids become seqs in the same order), without a feed part:
-- its events, if they are still kept, stay rows of their own.
INSERT INTO events (business_id, activity_type, entity_type, entity_id, actor_user_id, actor_api_key_id,
  actor_qr_code_id, activity_data, created_at)
SELECT business_id, type, entity_type, entity_id, actor_user_id, actor_api_key_id, actor_qr_code_id, data,
  created_at
FROM activity
ORDER BY created_at, id;

DROP TABLE activity;

-- The activity as its readers knew the table: a view (not in a backup, which copies tables).
CREATE VIEW activity AS
SELECT seq AS id, business_id, activity_type AS type, entity_type, entity_id, actor_user_id, actor_api_key_id,
  actor_qr_code_id, activity_data AS data, created_at
FROM events
WHERE activity_type IS NOT NULL;
