-- Confirmations a business has sent in the last hour are counted from its follows' creation times
-- (FOLLOW_CONFIRMATIONS_PER_HOUR, docs/notifications.md): this index reads only that hour's rows.
CREATE INDEX IF NOT EXISTS suggestion_follows_created_idx ON suggestion_follows (business_id, created_at);
