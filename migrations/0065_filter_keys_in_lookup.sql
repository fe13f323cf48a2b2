-- The list filters by status, priority, sentiment and language read keys of the one lookup GIN index
-- instead of a btree each (issue 41, docs/decisions.md "What a write costs"): a create adds four small
-- keys to the GIN's pending list where it wrote four btree entries of about 100 bytes of WAL each.
-- A list with one of these filters is planned for its value (src/counts/listing.ts): a common value
-- walks suggestions_created_idx and keeps the rows that match until the page is full; a rare one reads
-- its keys from the GIN and sorts the few rows they name. Totals still come from the counters.
CREATE INDEX suggestions_lookup_keys_idx ON suggestions
  USING gin (business_id, search, tags, feedback_terms(content), status, priority, sentiment, language);
DROP INDEX suggestions_lookup_idx;
ALTER INDEX suggestions_lookup_keys_idx RENAME TO suggestions_lookup_idx;

DROP INDEX suggestions_status_idx;
DROP INDEX suggestions_priority_idx;
DROP INDEX suggestions_sentiment_idx;
DROP INDEX suggestions_business_language_idx;
