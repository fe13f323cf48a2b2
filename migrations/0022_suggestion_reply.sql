-- The business's one public reply to a suggestion (issue 32), as its reads show it:
-- {content, author_name, created_at, updated_at}, the instants as ISO 8601 text in UTC. One object
-- in a column of the suggestion, not a table: there is at most one, it is read with the suggestion
-- every time, and a change to it moves the business's change number through the suggestion's own
-- triggers (0004_changes.sql), so the cached lists stay exact with nothing new to keep.
ALTER TABLE suggestions
  ADD COLUMN reply jsonb CHECK (reply IS NULL OR jsonb_typeof(reply) = 'object');
