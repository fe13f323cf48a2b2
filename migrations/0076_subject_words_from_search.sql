-- The lookup GIN keeps a suggestion's words once (issue 41, docs/decisions.md "The similar finder reads
-- the search keys"): `feedback_terms(content)` was the content's English stems less a few request
-- words, and `search` already holds every stem of the content (and of the customer's name) under its
-- own keys, so each word was two entries of every create's pending-list insert, about 240 bytes of WAL,
-- and the content was parsed twice per create. The likely-duplicate finder now asks `search` for the
-- typed words (an AND or an OR of them as a tsquery) and keeps the rows whose content has them
-- (src/merges/merge.similarity.ts): the same candidates, read from the same GIN.
CREATE INDEX suggestions_lookup_words_idx ON suggestions
  USING gin (business_id, search, tags, status, priority, sentiment, language);
DROP INDEX suggestions_lookup_idx;
ALTER INDEX suggestions_lookup_words_idx RENAME TO suggestions_lookup_idx;
