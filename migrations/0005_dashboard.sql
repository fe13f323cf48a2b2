-- What a dashboard needs to run a business without the admin CLI: locations it can rename and
-- remove, and the indexes that make "is this location still used?" cheap.

ALTER TABLE locations ADD COLUMN updated_at timestamptz(3);
UPDATE locations SET updated_at = created_at;
ALTER TABLE locations ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now();

-- Names are unique per business, ignoring case. Locations made before this rule (by the admin CLI)
-- may share a name: every duplicate after the oldest gets " (2)", " (3)"... so none is lost.
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY business_id, lower(name) ORDER BY created_at, id) AS n
  FROM locations
)
UPDATE locations l
SET name = left(l.name, 190) || ' (' || r.n || ')'
FROM ranked r
WHERE r.id = l.id
  AND r.n > 1;
CREATE UNIQUE INDEX locations_name_key ON locations (business_id, lower(name));

-- Deleting a location checks (and with force, detaches) what references it; without these the
-- check reads every suggestion and issue of the business.
CREATE INDEX suggestions_location_idx ON suggestions (business_id, location_id) WHERE location_id IS NOT NULL;
CREATE INDEX issues_location_idx ON issues (business_id, location_id) WHERE location_id IS NOT NULL;
CREATE INDEX qr_codes_location_idx ON qr_codes (business_id, location_id) WHERE location_id IS NOT NULL;
