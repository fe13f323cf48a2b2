-- Keys of the records a change writes beside itself that no statement reads by (issue 41,
-- docs/decisions.md "What a write costs"): each was one more index entry on every create and vote.

-- Activity is read by business (activity_business_idx) and by entity (activity_entity_idx), both
-- ending in id, and never by id alone: nothing references it. Its identity column still numbers it.
ALTER TABLE activity DROP CONSTRAINT activity_pkey;

-- An event's id is made by the service (a UUIDv7, src/shared/ids.ts: its millisecond and 74 random
-- bits) and never looked up: the feed reads by (business_id, xid, seq), deliveries carry the id as a
-- value. Two equal ids would need two draws of 74 random bits to match within one millisecond.
ALTER TABLE events DROP CONSTRAINT events_id_key;
