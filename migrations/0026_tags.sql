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

-- The exact total of a list filtered by one tag, however many items carry it: kept by triggers in the
-- same transaction as every write of an item's tags, like the counters of 0003 (docs/counting.md). A
-- count of the rows would visit every match on the heap: at a million suggestions, a tag on one in
-- twenty is fifty thousand visits per page. A rename or delete of a tag rewrites the items' tags, so
-- these rows follow it through the same triggers.
CREATE TABLE tag_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  entity      entity_type NOT NULL,
  tag         text NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (business_id, entity, tag)
);

-- TG_ARGV[0] is the entity. Only the tags that changed write a row: a vote, a status change or an
-- item without tags costs one query over the statement's transition rows and writes nothing.
CREATE FUNCTION count_tags() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT r.business_id, TG_ARGV[0]::entity_type, t.tag, count(*)
    FROM new_rows r
    CROSS JOIN unnest(r.tags) AS t (tag)
    GROUP BY r.business_id, t.tag
    ORDER BY r.business_id, t.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT d.business_id, TG_ARGV[0]::entity_type, d.tag, sum(d.delta)
    FROM (
      SELECT r.business_id, t.tag, 1 AS delta
      FROM new_rows r
      CROSS JOIN unnest(r.tags) AS t (tag)
      UNION ALL
      SELECT r.business_id, t.tag, -1
      FROM old_rows r
      CROSS JOIN unnest(r.tags) AS t (tag)) AS d
    GROUP BY d.business_id, d.tag
    HAVING sum(d.delta) <> 0
    ORDER BY d.business_id, d.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    -- rows deleted with their business (ON DELETE CASCADE) have nothing left to count
    INSERT INTO tag_counts AS c (business_id, entity, tag, n)
    SELECT r.business_id, TG_ARGV[0]::entity_type, t.tag, -count(*)
    FROM old_rows r
    CROSS JOIN unnest(r.tags) AS t (tag)
    WHERE EXISTS (SELECT 1 FROM businesses b WHERE b.id = r.business_id)
    GROUP BY r.business_id, t.tag
    ORDER BY r.business_id, t.tag
    ON CONFLICT (business_id, entity, tag) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

-- Named to fire after the change and count triggers of the same event (triggers fire in name order):
-- the same lock order as theirs, change row first.
CREATE TRIGGER suggestions_tags_count_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('suggestion');
CREATE TRIGGER suggestions_tags_count_update AFTER UPDATE ON suggestions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('suggestion');
CREATE TRIGGER suggestions_tags_count_delete AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('suggestion');
CREATE TRIGGER issues_tags_count_insert AFTER INSERT ON issues
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('issue');
CREATE TRIGGER issues_tags_count_update AFTER UPDATE ON issues
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('issue');
CREATE TRIGGER issues_tags_count_delete AFTER DELETE ON issues
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tags('issue');
