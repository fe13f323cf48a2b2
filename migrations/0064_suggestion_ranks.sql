-- A vote no longer rewrites the suggestion's index entries (issue 41, docs/decisions.md "What a write
-- costs"). `suggestions.upvote_count` stays the count every read returns, moved by the vote's own
-- statement as before, but no index of `suggestions` holds it any more, so the update is HOT: one small
-- heap record on the row's page instead of a new entry in each of the table's indexes (the trigram
-- GiST and the lookup GIN alone were about 1,000 bytes of WAL a vote).
--
-- The order by votes lives in `suggestion_ranks`, one narrow row per suggestion kept equal to the
-- suggestion's count by triggers in the same transaction as the write (every write path: the API, a
-- merge, the seed, an import, an operator's UPDATE), and read by lists sorted by votes through its
-- (business_id, upvote_count, suggestion_id) index joined to the suggestion by id.

CREATE TABLE suggestion_ranks (
  suggestion_id uuid PRIMARY KEY,
  business_id   uuid NOT NULL,
  upvote_count  integer NOT NULL
);
CREATE INDEX suggestion_ranks_votes_idx ON suggestion_ranks (business_id, upvote_count, suggestion_id);

INSERT INTO suggestion_ranks (suggestion_id, business_id, upvote_count)
SELECT id, business_id, upvote_count
FROM suggestions;

-- A new suggestion's rank: one statement per insert statement (an import's batch of 2,000 included).
CREATE FUNCTION rank_inserted_suggestions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suggestion_ranks (suggestion_id, business_id, upvote_count)
  SELECT id, business_id, upvote_count
  FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER suggestions_rank_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rank_inserted_suggestions();

-- A count that moved (a vote, a vote taken back, a merge): the rank row follows under the suggestion's
-- row lock, which every count change already holds.
CREATE FUNCTION rank_counted_suggestion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE suggestion_ranks
  SET upvote_count = NEW.upvote_count
  WHERE suggestion_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER suggestions_rank_update AFTER UPDATE OF upvote_count ON suggestions
  FOR EACH ROW WHEN (OLD.upvote_count IS DISTINCT FROM NEW.upvote_count)
  EXECUTE FUNCTION rank_counted_suggestion();

-- A deleted suggestion (or a deleted business's suggestions, by its cascade) takes its rank along.
CREATE FUNCTION unrank_deleted_suggestions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM suggestion_ranks r
  USING old_rows o
  WHERE r.suggestion_id = o.id;
  RETURN NULL;
END $$;
CREATE TRIGGER suggestions_rank_delete AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION unrank_deleted_suggestions();

DROP INDEX suggestions_upvotes_idx;

-- The roadmap's columns: the same partial index without the count. A column's page sorts the
-- column's public suggestions by votes (the public ones of one status: a top-N sort of few rows), and
-- its total stays an index-only count.
DROP INDEX suggestions_roadmap_idx;
CREATE INDEX suggestions_roadmap_idx
  ON suggestions (business_id, status, created_at DESC, id DESC)
  INCLUDE (status_changed_at)
  WHERE visibility = 'public'
    AND review_state IN ('not_required', 'approved')
    AND merged_into IS NULL;

-- Room on each new page for a row's next version, so a vote's update stays on the row's page (HOT)
-- instead of moving the row and writing every index again.
ALTER TABLE suggestions SET (fillfactor = 90);
