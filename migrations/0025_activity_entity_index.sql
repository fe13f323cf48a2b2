-- A suggestion's or an issue's history in the dashboard (its activity, oldest first): without this
-- index it read every activity row of the business, which grows with every change it ever made.
-- IF NOT EXISTS: the index was briefly numbered 0022 on main before that number went to the reply
-- column; a database migrated in between (a development one) already has it.
CREATE INDEX IF NOT EXISTS activity_entity_idx ON activity (business_id, entity_type, entity_id, created_at, id);
