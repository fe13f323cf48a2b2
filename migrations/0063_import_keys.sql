-- CSV import (issue 44): what makes re-importing the same file create nothing. An imported item keeps
-- the key of the row it came from: `id:<uuid>` when the file is one of our exports (its `id` column),
-- else `sha256:<hex>` of kind, content (or title and description), created_at and customer
-- (src/imports/import.rows.ts). Unique per business: a second import of the row is skipped by the
-- insert's ON CONFLICT, on the same index, however the two imports interleave. Null for every item
-- made any other way, which the partial index leaves out.
ALTER TABLE suggestions
  ADD COLUMN import_key text;
ALTER TABLE issues
  ADD COLUMN import_key text;
CREATE UNIQUE INDEX suggestions_business_import_key ON suggestions (business_id, import_key)
  WHERE import_key IS NOT NULL;
CREATE UNIQUE INDEX issues_business_import_key ON issues (business_id, import_key)
  WHERE import_key IS NOT NULL;
