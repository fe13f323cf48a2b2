-- One AFTER INSERT trigger on suggestions instead of five (issue 41, docs/decisions.md "One trigger
-- after a suggestion's insert"). Each of the five statement triggers (changes, counts, ranks, tags,
-- unscored) was a PL/pgSQL call of its own with its own scan of the transition table and its own
-- statements: a third of the PostgreSQL CPU of a create. The one trigger reads the statement's row once
-- when it inserted one (every write of the service) and moves each counter with one statement; a
-- statement of many rows (the seed, the CSV import's batches) takes the set-wise path the five took.
-- Counters are moved in the order the five fired (their names' order): change_counts, suggestion_counts
-- and created_counts, suggestion_ranks, tag_counts, unscored_counts, so two inserting transactions
-- lock them in the same order as before.
CREATE FUNCTION suggestions_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  s smallint := count_shard();
BEGIN
  SELECT count(*) OVER () AS n, i.id, i.business_id, i.status, i.priority, i.sentiment, i.created_at,
    i.sentiment_score, i.sentiment_lexicon, i.merged_into, i.tags, i.upvote_count
  INTO r
  FROM new_rows i
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;

  IF r.n > 1 THEN
    PERFORM apply_changes(ARRAY(SELECT business_id FROM new_rows));
    PERFORM apply_suggestion_deltas(ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), 1, score_e4(sentiment_score))::suggestion_delta
      FROM new_rows
      WHERE merged_into IS NULL));
    INSERT INTO suggestion_ranks (suggestion_id, business_id, upvote_count)
    SELECT id, business_id, upvote_count
    FROM new_rows;
  ELSE
    UPDATE change_counts
    SET n = n + 1
    WHERE business_id = r.business_id
      AND shard = s;
    IF NOT FOUND THEN
      INSERT INTO change_counts AS c (business_id, shard, n)
      VALUES (r.business_id, s, 1)
      ON CONFLICT (business_id, shard) DO UPDATE SET n = c.n + 1;
    END IF;
    IF r.merged_into IS NULL THEN
      UPDATE suggestion_counts
      SET n = n + 1,
          score_e4 = score_e4 + score_e4(r.sentiment_score)
      WHERE business_id = r.business_id
        AND status = r.status
        AND priority = r.priority
        AND sentiment = r.sentiment
        AND shard = s;
      IF NOT FOUND THEN
        INSERT INTO suggestion_counts AS c (business_id, status, priority, sentiment, shard, n, score_e4)
        VALUES (r.business_id, r.status, r.priority, r.sentiment, s, 1, score_e4(r.sentiment_score))
        ON CONFLICT (business_id, status, priority, sentiment, shard)
        DO UPDATE SET n = c.n + 1, score_e4 = c.score_e4 + EXCLUDED.score_e4;
      END IF;
      UPDATE created_counts
      SET n = n + 1
      WHERE business_id = r.business_id
        AND entity = 'suggestion'
        AND day = utc_day(r.created_at)
        AND shard = s;
      IF NOT FOUND THEN
        INSERT INTO created_counts AS c (business_id, entity, day, shard, n)
        VALUES (r.business_id, 'suggestion', utc_day(r.created_at), s, 1)
        ON CONFLICT (business_id, entity, day, shard) DO UPDATE SET n = c.n + 1;
      END IF;
    END IF;
    INSERT INTO suggestion_ranks (suggestion_id, business_id, upvote_count)
    VALUES (r.id, r.business_id, r.upvote_count);
  END IF;
  -- one statement for one row and many; a single row without tags (most creates) skips it
  IF r.n > 1 OR (r.merged_into IS NULL AND cardinality(r.tags) > 0) THEN
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT i.business_id, 'suggestion', t.tag, count(*)
    FROM new_rows i
    CROSS JOIN unnest(i.tags) AS t (tag)
    WHERE i.merged_into IS NULL
    GROUP BY i.business_id, t.tag
    ORDER BY i.business_id, t.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  IF r.n > 1 THEN
    FOR r IN
      SELECT business_id, count(*)::int AS n
      FROM new_rows
      WHERE sentiment_lexicon IS NULL AND sentiment = 'neutral' AND merged_into IS NULL
      GROUP BY business_id
      ORDER BY business_id
    LOOP
      PERFORM apply_unscored(r.business_id, r.n);
    END LOOP;
  ELSIF r.merged_into IS NULL AND r.sentiment_lexicon IS NULL AND r.sentiment = 'neutral' THEN
    PERFORM apply_unscored(r.business_id, 1);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER suggestions_change_insert ON suggestions;
DROP TRIGGER suggestions_count_insert ON suggestions;
DROP TRIGGER suggestions_rank_insert ON suggestions;
DROP TRIGGER suggestions_tags_count_insert ON suggestions;
DROP TRIGGER suggestions_unscored_insert ON suggestions;
DROP FUNCTION rank_inserted_suggestions();
DROP FUNCTION count_unscored_inserts();

CREATE TRIGGER suggestions_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION suggestions_inserted();
