-- The business-scoped lists and both families' comment lists are cached like the /api/v1 lists
-- (docs/caching.md): a comment written by any path must move the business's change number too.
CREATE TRIGGER comments_change_insert AFTER INSERT ON comments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER comments_change_update AFTER UPDATE ON comments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
CREATE TRIGGER comments_change_delete AFTER DELETE ON comments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();

-- sort=priority orders by (priority, id) within a business: the (priority, created_at, id) index
-- serves a priority filter, not that order.
CREATE INDEX suggestions_priority_id_idx ON suggestions (business_id, priority, id);
CREATE INDEX issues_priority_id_idx ON issues (business_id, priority, id);
