-- Tags (issue 33): a business's own labels for sorting feedback by theme. A tag has a name, unique in
-- its business ignoring case, a colour, and `public`: whether the public page shows it.
CREATE TABLE tags (
  id          uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
  color       text NOT NULL CHECK (color ~ '^#[0-9a-f]{6}$'),
  public      boolean NOT NULL DEFAULT false,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_business_name_key ON tags (business_id, lower(name));

-- Items carry their tags by name, in the tags' own spelling, kept in alphabetical order: reads,
-- exports and event objects show the column as it is, and a rename or a delete rewrites the items
-- that carry the tag in the same transaction (src/tags/tag.repository.ts). A filter is one
-- containment (`tags @> ARRAY[...]`) answered by one GIN index that also holds business_id
-- (btree_gin, 0015), so "every tag must match" is one index condition and reads no other tenant.
ALTER TABLE suggestions
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
ALTER TABLE issues
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
CREATE INDEX suggestions_business_tags_idx ON suggestions USING gin (business_id, tags);
CREATE INDEX issues_business_tags_idx ON issues USING gin (business_id, tags);

-- A list filtered by tag reads the tags (a filter name is matched ignoring case), and the public page
-- shows only the public ones: a change to a tag moves the business's change number (docs/caching.md).
CREATE TRIGGER tags_change_insert AFTER INSERT ON tags
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER tags_change_update AFTER UPDATE ON tags
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER tags_change_delete AFTER DELETE ON tags
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
