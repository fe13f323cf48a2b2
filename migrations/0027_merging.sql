-- Merging duplicate suggestions (issue 33, docs/decisions.md "Merging duplicates"). A merged
-- suggestion keeps its row, its status and its own votes and comments, so an unmerge can give them
-- back; it points at the suggestion it was merged into, which counts its voters and shows its comments.

ALTER TABLE suggestions
  ADD COLUMN merged_into uuid REFERENCES suggestions (id),
  ADD COLUMN merged_at timestamptz(3),
  ADD CONSTRAINT suggestions_merged_check CHECK ((merged_into IS NULL) = (merged_at IS NULL) AND merged_into <> id);
CREATE INDEX suggestions_merged_idx ON suggestions (business_id, merged_into) WHERE merged_into IS NOT NULL;

-- A vote stays on the suggestion it was cast on (suggestion_id) and is counted for `counted_for`: that
-- suggestion, or the one it is merged into. A voter of several suggestions of one merge counts once:
-- one of their votes is counted, the others are `duplicate`, and the partial unique index makes that
-- hold whatever the concurrency (a vote whose voter is already counted is not inserted). The
-- suggestion's upvote_count is the number of votes counted for it, not duplicate.
ALTER TABLE votes
  ADD COLUMN counted_for uuid REFERENCES suggestions (id) ON DELETE CASCADE,
  ADD COLUMN duplicate boolean NOT NULL DEFAULT false;
UPDATE votes
SET counted_for = suggestion_id;
ALTER TABLE votes
  ALTER COLUMN counted_for SET NOT NULL;
CREATE UNIQUE INDEX votes_counted_voter_key ON votes (counted_for, voter_digest) WHERE NOT duplicate;
CREATE INDEX votes_counted_idx ON votes (business_id, counted_for, created_at, id);

-- A comment moved by a merge remembers the suggestion it was written on: an unmerge takes it back.
ALTER TABLE comments
  ADD COLUMN merged_from uuid REFERENCES suggestions (id) ON DELETE SET NULL;
CREATE INDEX comments_merged_from_idx ON comments (business_id, merged_from) WHERE merged_from IS NOT NULL;

-- Likely duplicates (GET .../suggestions/{id}/similar): the nearest contents by trigram distance
-- (pg_trgm's `<->`), read in order from a GiST index that leads with the business (btree_gist), so a
-- top 5 reads a few pages of the business's own rows rather than every row sharing a common trigram
-- (a GIN index and `%` took 0.2 to 0.9 s at 100,000 seeded suggestions). The larger signature (256
-- bytes rather than 12) keeps the index's distance bounds useful for texts of a few sentences. Both
-- extensions are trusted; PGlite loads them as contrib modules (src/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE INDEX suggestions_content_trgm_idx ON suggestions USING gist (business_id, content gist_trgm_ops (siglen = 256));

-- The counters (0003_counts.sql, 0018_counter_plans.sql) count the suggestions lists show by default:
-- a merged suggestion leaves them when it is merged and comes back when it is unmerged, so a list's
-- exact total stays a read of the counters. `include_merged=true` counts the rows instead.
CREATE OR REPLACE FUNCTION count_suggestions() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  deltas suggestion_delta[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), 1, score_e4(sentiment_score))::suggestion_delta
      FROM new_rows
      WHERE merged_into IS NULL);
  ELSIF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (
      SELECT business_id, status, priority, sentiment, utc_day(created_at), score_e4(sentiment_score), merged_into IS NULL
      FROM new_rows
      EXCEPT ALL
      SELECT business_id, status, priority, sentiment, utc_day(created_at), score_e4(sentiment_score), merged_into IS NULL
      FROM old_rows)
    THEN
      RETURN NULL;
    END IF;
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), 1, score_e4(sentiment_score))::suggestion_delta
      FROM new_rows
      WHERE merged_into IS NULL
      UNION ALL
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), -1, -score_e4(sentiment_score))::suggestion_delta
      FROM old_rows
      WHERE merged_into IS NULL);
  ELSE
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), -1, -score_e4(sentiment_score))::suggestion_delta
      FROM old_rows o
      WHERE o.merged_into IS NULL
        AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = o.business_id));
  END IF;
  PERFORM apply_suggestion_deltas(deltas);
  RETURN NULL;
END $$;
