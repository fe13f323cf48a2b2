-- A change number per business: how many row changes its suggestions and issues have ever had.
-- Cached list responses are valid while it stays the same (docs/caching.md).
--
-- Kept like the counters of 0003_counts.sql: statement-level triggers, in the transaction of every
-- write (the API, the seed command, bulk SQL, an operator's UPDATE by hand), each statement adding
-- the number of rows it changed, split into shards by the writing backend so concurrent writers of
-- one business do not queue on a single row. The number is the sum of the shards. It only ever grows
-- and every committed write grows it, so two snapshots that read the same number saw the same
-- writes of that business: a response made from one is exact for the other.

CREATE TABLE change_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  shard       smallint NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (business_id, shard)
);

-- One entry per changed row version; upserts in key order, so two statements cannot deadlock on them.
CREATE FUNCTION apply_changes(business_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO change_counts AS c (business_id, shard, n)
  SELECT business_id, count_shard(), count(*)
  FROM unnest(business_ids) AS business_id
  GROUP BY business_id
  ORDER BY business_id
  ON CONFLICT (business_id, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;
$$;

-- As with the counters, rows of a business that is itself being deleted are skipped on DELETE.
CREATE FUNCTION count_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM apply_changes(ARRAY(SELECT business_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    -- A row moved to another business (only possible by hand) changes both.
    PERFORM apply_changes(ARRAY(
      SELECT n.business_id FROM new_rows n
      UNION ALL
      SELECT o.business_id FROM old_rows o WHERE o.business_id NOT IN (SELECT business_id FROM new_rows)));
  ELSE
    PERFORM apply_changes(ARRAY(
      SELECT business_id FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM businesses b WHERE b.id = o.business_id)));
  END IF;
  RETURN NULL;
END $$;

-- Named to fire before the counting triggers of the same event (triggers fire in name order), so
-- every statement takes the change row first and then the counter rows: one lock order for all.
CREATE TRIGGER suggestions_change_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER suggestions_change_update AFTER UPDATE ON suggestions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER suggestions_change_delete AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();

CREATE TRIGGER issues_change_insert AFTER INSERT ON issues
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER issues_change_update AFTER UPDATE ON issues
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER issues_change_delete AFTER DELETE ON issues
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
