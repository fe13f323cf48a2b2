-- Full-text search over stored tsvectors (English stemming; queries match word prefixes).
-- The two-argument to_tsvector is immutable, so the columns can be generated and indexed.

ALTER TABLE suggestions
  ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('english', content || ' ' || coalesce(customer_name, ''))
  ) STORED;
CREATE INDEX suggestions_search_idx ON suggestions USING gin (search);

ALTER TABLE issues
  ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('english', title || ' ' || description)
  ) STORED;
CREATE INDEX issues_search_idx ON issues USING gin (search);
