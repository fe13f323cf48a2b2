-- At most ten indexes on suggestions (issue 41, docs/decisions.md "Ten indexes on suggestions"):
-- three go, each of their queries served another way.

-- 1. The analytics' unscored count (sentiment_lexicon null, neutral, not merged) is a counter, moved
--    per insert statement, and by row triggers on update and delete whose WHEN lets every other row by
--    without a call: a vote (its UPDATE names only upvote_count) and most edits cost nothing. Sharded as the other counters, so
--    writers of one business do not queue on one row.
CREATE TABLE unscored_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  shard       smallint NOT NULL,
  n           integer NOT NULL,
  PRIMARY KEY (business_id, shard)
);

CREATE FUNCTION apply_unscored(business uuid, delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE unscored_counts
  SET n = n + delta
  WHERE business_id = business
    AND shard = count_shard();
  IF NOT FOUND THEN
    INSERT INTO unscored_counts AS c (business_id, shard, n)
    VALUES (business, count_shard(), delta)
    ON CONFLICT (business_id, shard)
    DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
END $$;

CREATE FUNCTION count_unscored() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE')
    AND OLD.sentiment_lexicon IS NULL AND OLD.sentiment = 'neutral' AND OLD.merged_into IS NULL
    -- a business being deleted takes its counter rows along (the foreign key's cascade)
    AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = OLD.business_id)
  THEN
    PERFORM apply_unscored(OLD.business_id, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE')
    AND NEW.sentiment_lexicon IS NULL AND NEW.sentiment = 'neutral' AND NEW.merged_into IS NULL
  THEN
    PERFORM apply_unscored(NEW.business_id, 1);
  END IF;
  RETURN NULL;
END $$;

-- Inserts are counted per statement: a row trigger moved the one counter row once per row, and
-- PostgreSQL walks every earlier version of that row in the same transaction, so a 50,000-row insert
-- (seed, import) took 57 s instead of 5.
CREATE FUNCTION count_unscored_inserts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT business_id, count(*)::int AS n
    FROM new_rows
    WHERE sentiment_lexicon IS NULL AND sentiment = 'neutral' AND merged_into IS NULL
    GROUP BY business_id
    ORDER BY business_id
  LOOP
    PERFORM apply_unscored(r.business_id, r.n);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER suggestions_unscored_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_unscored_inserts();
CREATE TRIGGER suggestions_unscored_update AFTER UPDATE OF business_id, sentiment, sentiment_lexicon, merged_into
  ON suggestions
  FOR EACH ROW
  WHEN ((OLD.sentiment_lexicon IS NULL AND OLD.sentiment = 'neutral' AND OLD.merged_into IS NULL)
    IS DISTINCT FROM (NEW.sentiment_lexicon IS NULL AND NEW.sentiment = 'neutral' AND NEW.merged_into IS NULL)
    OR OLD.business_id IS DISTINCT FROM NEW.business_id)
  EXECUTE FUNCTION count_unscored();
CREATE TRIGGER suggestions_unscored_delete AFTER DELETE ON suggestions
  FOR EACH ROW
  WHEN (OLD.sentiment_lexicon IS NULL AND OLD.sentiment = 'neutral' AND OLD.merged_into IS NULL)
  EXECUTE FUNCTION count_unscored();

INSERT INTO unscored_counts (business_id, shard, n)
SELECT business_id, 0, count(*)
FROM suggestions
WHERE sentiment_lexicon IS NULL
  AND sentiment = 'neutral'
  AND merged_into IS NULL
GROUP BY business_id;

DROP INDEX suggestions_unscored_idx;

-- 2. A QR code's submissions of the last 30 days by location read the creation-time index, which now
--    carries each row's source and location: an index-only scan of the business's last 30 days, the
--    condition on the source checked in the index (a create's entry grows by the 4-byte source, and by
--    16 bytes when it has a location). The partial index of QR rows goes.
CREATE INDEX suggestions_created_source_idx ON suggestions (business_id, created_at, id) INCLUDE (source, location_id);
DROP INDEX suggestions_created_idx;
ALTER INDEX suggestions_created_source_idx RENAME TO suggestions_created_idx;
DROP INDEX suggestions_qr_code_created_idx;

-- 3. The public page reads the roadmap's index (public, reviewed, not merged; by status, then newest
--    first): its newest-first order takes each shown status's first rows and merges them
--    (page.repository.ts), and its total counts the index as before. suggestions_public_idx goes.
DROP INDEX suggestions_public_idx;
