-- The public roadmap and similar suggestions while typing (issue 42, docs/roadmap.md,
-- docs/decisions.md "Similar suggestions: which measure").

-- A business's roadmap: on or off (off, its page is a 404), and the statuses it shows as columns, in
-- their order. Never `rejected`: the page never shows a rejected suggestion.
ALTER TABLE businesses
  ADD COLUMN roadmap_enabled boolean NOT NULL DEFAULT true,
  -- text[] rather than suggestion_status[]: node-postgres parses no array of an enum of ours.
  ADD COLUMN roadmap_statuses text[] NOT NULL DEFAULT '{reviewing,in_progress,completed}',
  ADD CONSTRAINT businesses_roadmap_statuses_check CHECK (
    cardinality(roadmap_statuses) BETWEEN 1 AND 4
    AND roadmap_statuses <@ ARRAY['pending', 'reviewing', 'in_progress', 'completed']);

-- The roadmap is cached under the business's change number like the lists (docs/caching.md) and shows
-- the business's settings: a change to the business moves the number too.
CREATE FUNCTION count_business_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RETURN NULL;
  END IF;
  PERFORM apply_changes(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER businesses_change_insert AFTER INSERT ON businesses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_business_changes();
CREATE TRIGGER businesses_change_update AFTER UPDATE ON businesses
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_business_changes();
-- A deleted business takes its change counts with it (ON DELETE CASCADE): nothing is left to serve.
CREATE TRIGGER businesses_change_delete AFTER DELETE ON businesses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_business_changes();

-- When a suggestion last changed status: `completed` shows the last 90 days of completions. Set on
-- insert (to its creation, as seeded or imported rows say) and whenever the status changes.
ALTER TABLE suggestions
  ADD COLUMN status_changed_at timestamptz(3);
UPDATE suggestions
SET status_changed_at = CASE WHEN status = 'pending' THEN created_at ELSE updated_at END;
ALTER TABLE suggestions
  ALTER COLUMN status_changed_at SET NOT NULL;

CREATE FUNCTION stamp_status_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.status_changed_at := coalesce(NEW.status_changed_at, NEW.created_at, now());
  ELSE
    NEW.status_changed_at := date_trunc('milliseconds', clock_timestamp());
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER suggestions_status_stamp_insert BEFORE INSERT ON suggestions
  FOR EACH ROW WHEN (NEW.status_changed_at IS NULL) EXECUTE FUNCTION stamp_status_change();
CREATE TRIGGER suggestions_status_stamp_update BEFORE UPDATE OF status ON suggestions
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION stamp_status_change();

-- A column of the roadmap: the suggestions the page shows in one status, by votes. Its first 20 are the
-- first entries of the index; its exact total an index-only count (status_changed_at for the 90 days).
CREATE INDEX suggestions_roadmap_idx
  ON suggestions (business_id, status, upvote_count DESC, created_at DESC, id DESC)
  INCLUDE (status_changed_at)
  WHERE visibility = 'public'
    AND review_state IN ('not_required', 'approved')
    AND merged_into IS NULL;

-- Similar suggestions: the subject words of a text, English stems without stop words and without the
-- words requests are phrased with, so that "Vegan food please" and "More vegan options" share {vegan}
-- and "More payment options" shares nothing with them. Their overlap is the share of the shorter
-- list found in the other. Chosen on labelled pairs (bench/similarity/).
CREATE FUNCTION feedback_terms(content text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT term ORDER BY term), '{}')
  FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, content))) AS term
  WHERE term <> ALL (ARRAY['pleas', 'add', 'option', 'choic', 'offer', 'need', 'want', 'get', 'bring', 'back',
    'provid', 'allow', 'let', 'us', 'would', 'could', 'like', 'way', 'much', 'alway', 'realli', 'make',
    'someth', 'thing', 'lot', 'bit', 'also', 'even', 'still', 'thank', 'love', 'hope', 'think', 'wish'])
$$;

CREATE FUNCTION feedback_term_overlap(a text[], b text[]) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN cardinality(a) = 0 OR cardinality(b) = 0 THEN 0::float8 ELSE
    (SELECT count(*) FROM unnest(a) AS x WHERE x = ANY (b))::float8 / least(cardinality(a), cardinality(b)) END
$$;

-- The suggestions sharing a subject word with a typed text, found by the word (btree_gin leads with the
-- business), beside the nearest by trigram distance (0027_merging.sql).
CREATE INDEX suggestions_terms_idx ON suggestions USING gin (business_id, feedback_terms(content));
