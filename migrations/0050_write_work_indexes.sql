-- Less work per create and per vote (issue 41, docs/decisions.md "What a write costs"): indexes that
-- no query's plan needs, or that one index serves as well.

-- Search, tags and the likely-duplicate terms in one GIN index: a multi-column GIN index answers a
-- condition on any of its columns alone (each column's keys are kept apart), so `search @@ q`,
-- `tags @> ...` and `feedback_terms(content) @> ...` each read only their own keys, as before, while
-- a create adds one index tuple list instead of three.
CREATE INDEX suggestions_lookup_idx ON suggestions
  USING gin (business_id, search, tags, feedback_terms(content));
DROP INDEX suggestions_business_search_idx;
DROP INDEX suggestions_business_tags_idx;
DROP INDEX suggestions_terms_idx;

-- The purge of old events walks the primary key (seq order is commit-near creation order) and
-- stops at its batch, so no index of creation times is kept on every event.
DROP INDEX events_created_idx;

-- A suggestion's votes are read by the suggestion they count for (votes_counted_idx); the few reads
-- by the suggestion voted on (a merge undone, the cascade of a deleted suggestion) take the unique
-- (suggestion_id, voter_digest) index.
DROP INDEX votes_suggestion_idx;
