-- Writes of suggestions and votes take no row lock on their business (issue 41, docs/decisions.md
-- "No foreign-key lock on the business per write"). A foreign key's check runs
-- `SELECT 1 FROM businesses WHERE id = $1 FOR KEY SHARE` for every inserted row: a statement, a heap
-- LOCK record (54 bytes of WAL) the first time in a transaction, and, with many writers of one business
-- at once, a MultiXact on the one business row that every one of them extends. The suggestion's and
-- the vote's own foreign keys to the business and the vote's to its suggestions go; their rows are
-- deleted with their business (and a vote with its suggestion) by the triggers below instead of by
-- ON DELETE CASCADE.
--
-- Why a row can still not outlive its business. Every statement that writes suggestions moves the
-- business's change counter (count_changes, 0004), and a vote moves its suggestion's count, so a
-- writer holds a row of change_counts locked until it commits, or inserts one, whose foreign key
-- (kept) still checks the business. delete_business_rows deletes the counter rows first: that waits
-- for every writer of the business still in flight, and each following statement of the function
-- takes a new snapshot (READ COMMITTED), so it sees and deletes what they committed. A writer that
-- comes later finds no counter row, inserts one, and its foreign key check fails on the deleted (or
-- being deleted) business: its whole statement is rolled back.
ALTER TABLE suggestions DROP CONSTRAINT suggestions_business_id_fkey;
ALTER TABLE votes
  DROP CONSTRAINT votes_business_id_fkey,
  DROP CONSTRAINT votes_suggestion_id_fkey,
  DROP CONSTRAINT votes_counted_for_fkey;

CREATE FUNCTION delete_business_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM change_counts WHERE business_id = OLD.id;
  DELETE FROM suggestion_counts WHERE business_id = OLD.id;
  DELETE FROM created_counts WHERE business_id = OLD.id;
  DELETE FROM votes WHERE business_id = OLD.id;
  DELETE FROM suggestions WHERE business_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER businesses_delete_rows AFTER DELETE ON businesses
  FOR EACH ROW EXECUTE FUNCTION delete_business_rows();

-- No statement of the service deletes a suggestion but the business's deletion above; a suggestion
-- deleted by hand takes its votes along, as the foreign keys' cascade did.
CREATE FUNCTION delete_suggestion_votes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM votes v
  USING old_rows o
  WHERE v.business_id = o.business_id
    AND (v.suggestion_id = o.id OR v.counted_for = o.id);
  RETURN NULL;
END $$;

CREATE TRIGGER suggestions_delete_votes AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION delete_suggestion_votes();
