-- The worker claims deliveries endpoint by endpoint (claimDueDeliveries in
-- src/webhooks/webhook.queue.ts): a loose scan of this index finds each endpoint with pending
-- deliveries and its oldest one in one descent, and then its oldest due rows. It replaces the index of
-- due rows in time order, whose scan walked every due row of endpoints at their limit on every claim.
CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at, id)
  WHERE status = 'pending';
DROP INDEX webhook_deliveries_due_idx;
