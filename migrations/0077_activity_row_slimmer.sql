-- Less of `events` per create and vote (issue 41, docs/decisions.md "Activity marked by its entity; its
-- type stored only when it differs from the event's"):
--
-- A row's activity part is marked by its entity (`entity_id IS NOT NULL`), which every activity has
-- (recordsSql always writes one), not by `activity_type`. So `activity_type` may be null: it is stored
-- only when it differs from the row's event type, and a create's or vote's activity (suggestion.created,
-- suggestion.voted, ...) is its event's type, about 24 bytes of every such row that said it twice. The
-- view reads `coalesce(activity_type, type)`, the type as before; the purge, which trims a row's feed
-- part (`type` goes null), first copies the type into `activity_type` (outbox.repository.ts,
-- deleteOldEvents). Rows written before keep their `activity_type`: either way reads the same.
--
-- The entity index's key loses `entity_type` (16 bytes of every activity's entry): entity ids are
-- UUIDs, unique across the entity types, and an entity's history (analytics.repository.ts,
-- entityActivity) still filters its type on the rows the index names.
--
-- The activity index is kept in ascending order, read backward for the newest first: descending, each
-- new entry went in at the left end of its business's entries, where a full page splits in half; at
-- the right end, after the entry before it, PostgreSQL splits it leaving the left page full, so the
-- index splits about half as often (each split a few kilobytes of WAL).
CREATE INDEX events_activity_by_entity_idx ON events (business_id, created_at, seq)
  WHERE entity_id IS NOT NULL;
CREATE INDEX events_entity_id_idx ON events (business_id, entity_id, created_at, seq)
  WHERE entity_id IS NOT NULL;
DROP INDEX events_activity_idx;
DROP INDEX events_entity_idx;
ALTER INDEX events_activity_by_entity_idx RENAME TO events_activity_idx;
ALTER INDEX events_entity_id_idx RENAME TO events_entity_idx;

CREATE OR REPLACE VIEW activity AS
SELECT seq AS id, business_id, coalesce(activity_type, type) AS type, entity_type, entity_id, actor_user_id,
  actor_api_key_id, actor_qr_code_id, activity_data AS data, created_at
FROM events
WHERE entity_id IS NOT NULL;

-- A business's deletion deletes its activity through the activity index's new predicate (0074).
CREATE OR REPLACE FUNCTION delete_business_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM change_counts WHERE business_id = OLD.id;
  DELETE FROM suggestion_counts WHERE business_id = OLD.id;
  DELETE FROM created_counts WHERE business_id = OLD.id;
  DELETE FROM votes WHERE business_id = OLD.id;
  DELETE FROM suggestions WHERE business_id = OLD.id;
  DELETE FROM events WHERE business_id = OLD.id AND type IS NOT NULL;
  DELETE FROM events WHERE business_id = OLD.id AND entity_id IS NOT NULL;
  RETURN NULL;
END $$;
