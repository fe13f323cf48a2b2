-- No primary key on events.seq (issue 41, docs/decisions.md "One row for a change's activity and its
-- event"): it was an index entry on every create and vote that only the purge walked, and the purge
-- now walks each business's feed index (0069_one_record_row.sql). Every read is by business:
-- events_feed_idx, events_activity_idx, events_entity_idx. seq still comes from its sequence, unique.
ALTER TABLE events DROP CONSTRAINT events_pkey;
