-- The counters of a single-row write (a create, a vote, an edit: the hot path) are moved by a plain
-- UPDATE of the one counter row, and upserted only when that row does not exist yet (issue 41,
-- docs/decisions.md "What a write costs"). INSERT ... ON CONFLICT DO UPDATE first locks the row it
-- conflicts with, a WAL record of its own (54 bytes) before the update's: three per create.
-- Statements over several rows keep the upsert in key order, so two of them still cannot deadlock;
-- a single row takes one counter row per table, in the same table order as before.

CREATE OR REPLACE FUNCTION apply_changes(business_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(business_ids) = 1 THEN
    UPDATE change_counts
    SET n = n + 1
    WHERE business_id = business_ids[1]
      AND shard = count_shard();
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  INSERT INTO change_counts AS c (business_id, shard, n)
  SELECT business_id, count_shard(), count(*)
  FROM unnest(business_ids) AS business_id
  GROUP BY business_id
  ORDER BY business_id
  ON CONFLICT (business_id, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

CREATE OR REPLACE FUNCTION apply_suggestion_deltas(deltas suggestion_delta[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  d suggestion_delta;
BEGIN
  IF cardinality(deltas) = 1 THEN
    d := deltas[1];
    UPDATE suggestion_counts
    SET n = n + d.n,
        score_e4 = score_e4 + d.score_e4
    WHERE business_id = d.business_id
      AND status = d.status
      AND priority = d.priority
      AND sentiment = d.sentiment
      AND shard = count_shard();
    IF NOT FOUND THEN
      INSERT INTO suggestion_counts AS c (business_id, status, priority, sentiment, shard, n, score_e4)
      VALUES (d.business_id, d.status, d.priority, d.sentiment, count_shard(), d.n, d.score_e4)
      ON CONFLICT (business_id, status, priority, sentiment, shard)
      DO UPDATE SET n = c.n + EXCLUDED.n, score_e4 = c.score_e4 + EXCLUDED.score_e4;
    END IF;
    UPDATE created_counts
    SET n = n + d.n
    WHERE business_id = d.business_id
      AND entity = 'suggestion'
      AND day = d.day
      AND shard = count_shard();
    IF NOT FOUND THEN
      INSERT INTO created_counts AS c (business_id, entity, day, shard, n)
      VALUES (d.business_id, 'suggestion', d.day, count_shard(), d.n)
      ON CONFLICT (business_id, entity, day, shard)
      DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN;
  END IF;

  INSERT INTO suggestion_counts AS c (business_id, status, priority, sentiment, shard, n, score_e4)
  SELECT business_id, status, priority, sentiment, count_shard(), sum(n), sum(score_e4)
  FROM unnest(deltas)
  GROUP BY business_id, status, priority, sentiment
  HAVING sum(n) <> 0 OR sum(score_e4) <> 0
  ORDER BY business_id, status, priority, sentiment
  ON CONFLICT (business_id, status, priority, sentiment, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n, score_e4 = c.score_e4 + EXCLUDED.score_e4;

  INSERT INTO created_counts AS c (business_id, entity, day, shard, n)
  SELECT business_id, 'suggestion', day, count_shard(), sum(n)
  FROM unnest(deltas)
  GROUP BY business_id, day
  HAVING sum(n) <> 0
  ORDER BY business_id, day
  ON CONFLICT (business_id, entity, day, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;
