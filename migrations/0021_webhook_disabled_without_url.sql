-- `webhook.disabled` events no longer carry the endpoint's URL (it often holds a credential, and the
-- feed is read by read keys and members, who may not list webhooks): strip it from those written before.
UPDATE events
SET data = data #- '{object,url}'
WHERE type = 'webhook.disabled';
