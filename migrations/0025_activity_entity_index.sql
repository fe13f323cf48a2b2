-- A suggestion's or an issue's history in the dashboard (its activity, oldest first): without this
-- index it read every activity row of the business, which grows with every change it ever made.
CREATE INDEX activity_entity_idx ON activity (business_id, entity_type, entity_id, created_at, id);
