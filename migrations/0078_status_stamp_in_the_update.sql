-- No BEFORE UPDATE row trigger on suggestions (issue 41, docs/decisions.md "No row lock before a
-- suggestion's update"): PostgreSQL locks a row before it runs a table's BEFORE UPDATE row triggers,
-- whatever their column list and WHEN say, so suggestions_status_stamp_update (0044) made every UPDATE
-- of a suggestion (a vote's count, a follow, a reply, a merge) write a heap LOCK record (54 bytes of
-- WAL) before its own, and call the trigger's WHEN. The one statement that changes a suggestion's status
-- (updateRecordedSuggestion, src/suggestions/suggestion.repository.ts) stamps status_changed_at itself,
-- with the same value the trigger gave. The insert's stamp stays a trigger: a BEFORE INSERT trigger
-- locks nothing.
DROP TRIGGER suggestions_status_stamp_update ON suggestions;
