-- Search indexes that lead with the business. A list's `q` always names one business, but the
-- full-text indexes of 0002 held every tenant's words together: a common word matched rows of every
-- business, each visited on the heap to be thrown away, and counting a business's matches for the
-- exact total cost as much as the whole table's matches. btree_gin lets one GIN index hold business_id
-- beside the tsvector, so a search reads and counts only its own business's rows.
-- btree_gin is a trusted extension (PostgreSQL 13+): the database owner may create it; PGlite loads
-- it as a contrib module (src/db/embedded.ts).

CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX suggestions_business_search_idx ON suggestions USING gin (business_id, search);
DROP INDEX suggestions_search_idx;

CREATE INDEX issues_business_search_idx ON issues USING gin (business_id, search);
DROP INDEX issues_search_idx;
