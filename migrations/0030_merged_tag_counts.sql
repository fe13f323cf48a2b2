-- Merged suggestions leave the lists and the counters (0027_merging.sql); the tag counters of
-- 0026_tags.sql follow them: a suggestion counts for its tags only while it is not merged, so a list
-- filtered by one tag (merged suggestions hidden by default) keeps an exact total. Issues are never
-- merged and keep count_tags.
CREATE FUNCTION count_suggestion_tags() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT r.business_id, 'suggestion', t.tag, count(*)
    FROM new_rows r
    CROSS JOIN unnest(r.tags) AS t (tag)
    WHERE r.merged_into IS NULL
    GROUP BY r.business_id, t.tag
    ORDER BY r.business_id, t.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT d.business_id, 'suggestion', d.tag, sum(d.delta)
    FROM (
      SELECT r.business_id, t.tag, 1 AS delta
      FROM new_rows r
      CROSS JOIN unnest(r.tags) AS t (tag)
      WHERE r.merged_into IS NULL
      UNION ALL
      SELECT r.business_id, t.tag, -1
      FROM old_rows r
      CROSS JOIN unnest(r.tags) AS t (tag)
      WHERE r.merged_into IS NULL) AS d
    GROUP BY d.business_id, d.tag
    HAVING sum(d.delta) <> 0
    ORDER BY d.business_id, d.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT r.business_id, 'suggestion', t.tag, -count(*)
    FROM old_rows r
    CROSS JOIN unnest(r.tags) AS t (tag)
    WHERE r.merged_into IS NULL
      AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = r.business_id)
    GROUP BY r.business_id, t.tag
    ORDER BY r.business_id, t.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER suggestions_tags_count_insert ON suggestions;
DROP TRIGGER suggestions_tags_count_update ON suggestions;
DROP TRIGGER suggestions_tags_count_delete ON suggestions;
CREATE TRIGGER suggestions_tags_count_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestion_tags();
CREATE TRIGGER suggestions_tags_count_update AFTER UPDATE ON suggestions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestion_tags();
CREATE TRIGGER suggestions_tags_count_delete AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestion_tags();

-- Suggestions merged while their tags were counted: counted again from the rows.
DELETE FROM tag_counts WHERE entity = 'suggestion';
INSERT INTO tag_counts (business_id, entity, tag, n)
SELECT s.business_id, 'suggestion', t.tag, count(*)
FROM suggestions s
CROSS JOIN unnest(s.tags) AS t (tag)
WHERE s.merged_into IS NULL
GROUP BY s.business_id, t.tag;
