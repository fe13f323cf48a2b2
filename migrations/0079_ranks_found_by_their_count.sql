-- No primary key on suggestion_ranks (issue 41, docs/decisions.md "A rank is found by its count"): a
-- rank row always holds its suggestion's upvote_count (the triggers below keep it in the statement that
-- moves the count), so (business_id, upvote_count, suggestion_id), the order-by-votes index, finds it
-- as well as its suggestion's id did. The key's entry was 71 bytes of WAL on every create and 72 on
-- every vote (a vote's UPDATE of the rank is not HOT: its count is indexed). The list sorted by votes
-- joins on the three columns (src/suggestions/suggestion.repository.ts).
CREATE OR REPLACE FUNCTION rank_counted_suggestion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE suggestion_ranks
  SET upvote_count = NEW.upvote_count
  WHERE business_id = OLD.business_id
    AND upvote_count = OLD.upvote_count
    AND suggestion_id = OLD.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION unrank_deleted_suggestions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM suggestion_ranks r
  USING old_rows o
  WHERE r.business_id = o.business_id
    AND r.upvote_count = o.upvote_count
    AND r.suggestion_id = o.id;
  RETURN NULL;
END $$;

ALTER TABLE suggestion_ranks DROP CONSTRAINT suggestion_ranks_pkey;
