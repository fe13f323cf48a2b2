-- What a vote writes that nothing reads, or that its own row already says (issue 41, docs/decisions.md
-- "A vote's event implies its change").
--
-- A vote's event stores no `data`: its change is `upvote_count` from one less (shape 2) or one more
-- (shape 3, a vote taken back) to the count in its object, so event_data() puts the `changes` back from
-- the object's values, the same jsonb as was stored before. Shapes 2 and 3 have shape 1's keys. A
-- create's event stores no `data` either: a shape with a null `data` and no implied change reads `{}`.
CREATE OR REPLACE FUNCTION event_object_keys(shape smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN shape IN (1, 2, 3) THEN ARRAY['id', 'content', 'status', 'priority', 'sentiment', 'sentiment_score',
      'language', 'sentiment_lexicon', 'customer_name', 'customer_email', 'upvote_count', 'tags',
      'is_anonymous', 'visibility', 'review_state', 'location_id', 'created_at', 'updated_at', 'reply',
      'follower_count', 'merged_into']
  END
$$;

CREATE OR REPLACE FUNCTION event_data(data jsonb, shape smallint, object_values jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN shape IS NULL THEN data
    ELSE coalesce(data, CASE
      WHEN shape IN (2, 3) THEN jsonb_build_object('changes', jsonb_build_object('upvote_count', jsonb_build_object(
        'from', (object_values ->> (array_position(event_object_keys(shape), 'upvote_count') - 1))::int
          + CASE shape WHEN 2 THEN -1 ELSE 1 END,
        'to', object_values -> (array_position(event_object_keys(shape), 'upvote_count') - 1))))
      ELSE '{}'::jsonb
    END) || jsonb_build_object('object', (
      SELECT jsonb_object_agg((event_object_keys(shape))[v.i], v.value)
      FROM jsonb_array_elements(object_values) WITH ORDINALITY AS v (value, i)))
  END
$$;

-- No primary key on votes.id: a vote is found by its suggestion and voter (the two unique indexes),
-- and the few reads by id (taking a vote back by its id, a merge's moves) name the suggestion it is
-- counted for, so they read that suggestion's entries of votes_counted_idx (business_id, counted_for,
-- created_at, id), the id checked on each: linear in its votes, not in the business's.
-- The key's entry was 72 bytes of WAL on every vote. ids still come from the service, UUIDv7, unique.
ALTER TABLE votes DROP CONSTRAINT votes_pkey;
