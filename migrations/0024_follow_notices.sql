-- What followers hear (issue 32, docs/notifications.md). A change a follower would want to know of
-- (the status moving to reviewing, in progress, completed or rejected; the public reply set or
-- changed) of a public suggestion that needs no review or was approved, and that someone follows,
-- leaves a notice, written by the change's own statement through this trigger, whatever path made
-- it. Changes within the grouping window join the first one's notice (it keeps the state before the
-- first), and the notifier (src/follows/follow.notifier.ts) sends one message per confirmed follower
-- once the window has passed.
CREATE TABLE follow_notices (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  suggestion_id uuid NOT NULL UNIQUE REFERENCES suggestions (id) ON DELETE CASCADE,
  from_status   suggestion_status NOT NULL,
  from_reply    jsonb,
  due_at        timestamptz(3) NOT NULL,
  created_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX follow_notices_due_idx ON follow_notices (due_at);

-- One row per notification queued, for the business's hourly cap and so a notice sent in parts never
-- mails a follower twice; kept a day.
CREATE TABLE follow_mail_log (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  notice_id   uuid NOT NULL,
  follow_id   uuid NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (notice_id, follow_id)
);
CREATE INDEX follow_mail_log_business_idx ON follow_mail_log (business_id, created_at);

-- A business that does not want its followers emailed turns this off (PATCH /businesses/{id}).
ALTER TABLE businesses
  ADD COLUMN notify_followers boolean NOT NULL DEFAULT true;

CREATE FUNCTION note_followed_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.follower_count > 0
    AND NEW.visibility = 'public'
    AND NEW.review_state IN ('not_required', 'approved')
    AND ((NEW.status IS DISTINCT FROM OLD.status
          AND NEW.status IN ('reviewing', 'in_progress', 'completed', 'rejected'))
      OR (NEW.reply IS NOT NULL
          AND NEW.reply ->> 'content' IS DISTINCT FROM OLD.reply ->> 'content'))
  THEN
    INSERT INTO follow_notices (business_id, suggestion_id, from_status, from_reply, due_at)
    VALUES (NEW.business_id, NEW.id, OLD.status, OLD.reply, now() + interval '5 minutes')
    ON CONFLICT (suggestion_id) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER suggestions_note_followed_change AFTER UPDATE OF status, reply ON suggestions
  FOR EACH ROW EXECUTE FUNCTION note_followed_change();
