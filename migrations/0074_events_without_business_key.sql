-- The last key-share lock on the business per write (issue 41, docs/decisions.md "No foreign-key lock
-- on the business per write"): since 0070 suggestions and votes check no key to their business, and
-- since 0069 a change's activity and event are one row of `events`, whose key to its business was the
-- one check left on a create and a vote: a heap LOCK record (54 bytes of WAL) and, with many writers of
-- one business at once, the MultiXact on the business row they all extend.
--
-- The key goes; the business's deletion deletes its events by the trigger of 0070, each part through
-- its own partial index (a plain `business_id = $1` would read the whole table). Why no event outlives
-- its business: an event is written in the statement or transaction of the change it records, and
-- every such change writes or locks a row that the deletion deletes or locks before this trigger runs
-- (a suggestion's or vote's change counter, as 0070 says; an issue, comment, key, member, location,
-- changelog entry or webhook endpoint still has its key with ON DELETE CASCADE, whose triggers fire
-- before this one and wait for the writer). The trigger's statements each take a new snapshot, so they
-- see what those writers committed.
ALTER TABLE events DROP CONSTRAINT events_business_id_fkey;

CREATE OR REPLACE FUNCTION delete_business_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM change_counts WHERE business_id = OLD.id;
  DELETE FROM suggestion_counts WHERE business_id = OLD.id;
  DELETE FROM created_counts WHERE business_id = OLD.id;
  DELETE FROM votes WHERE business_id = OLD.id;
  DELETE FROM suggestions WHERE business_id = OLD.id;
  DELETE FROM events WHERE business_id = OLD.id AND type IS NOT NULL;
  DELETE FROM events WHERE business_id = OLD.id AND activity_type IS NOT NULL;
  RETURN NULL;
END $$;
