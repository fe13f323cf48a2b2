-- A suggestion's event stores its object as the values alone (issue 41, docs/decisions.md "What a
-- write costs"): `object_values` is a jsonb array of the object's values in the order of the keys its
-- shape names, and `data` keeps the rest (`changes`, or nothing). The 21 key names and their entries
-- were about half of every suggestion event's row, the largest record of a create and of a vote.
-- event_data() rebuilds `data` as it was stored before: jsonb keeps no key order of its own (it sorts
-- keys), so the rebuilt value is the same jsonb, and what the feed and webhooks serve is unchanged.
-- Other events (and older suggestion events) keep their whole `data` and a null shape.
ALTER TABLE events ADD COLUMN object_shape smallint, ADD COLUMN object_values jsonb;

-- The key names of each shape, in the order of its values. Shape 1 is the suggestion object's fields
-- (SUGGESTION_SHAPE_1_KEYS, src/suggestions/suggestion.repository.ts). A change of the fields is a new
-- shape (CREATE OR REPLACE with one more WHEN), so events written before it read as they were. In a
-- function, not a table: the same in every database, no row for a backup to carry or a restore to find.
CREATE FUNCTION event_object_keys(shape smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE shape
    WHEN 1 THEN ARRAY['id', 'content', 'status', 'priority', 'sentiment', 'sentiment_score', 'language',
      'sentiment_lexicon', 'customer_name', 'customer_email', 'upvote_count', 'tags', 'is_anonymous',
      'visibility', 'review_state', 'location_id', 'created_at', 'updated_at', 'reply', 'follower_count',
      'merged_into']
  END
$$;

CREATE FUNCTION event_data(data jsonb, shape smallint, object_values jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN shape IS NULL THEN data
    ELSE data || jsonb_build_object('object', (
      SELECT jsonb_object_agg((event_object_keys(shape))[v.i], v.value)
      FROM jsonb_array_elements(object_values) WITH ORDINALITY AS v (value, i)))
  END
$$;
