-- Invite emails are capped per business per hour and per address per day (src/team/team.service.ts),
-- counted from team_invites, whose rows stay when an invite is cancelled, expires or is accepted: the
-- count is of emails sent, so cancelling and inviting again does not reset it. This index finds a
-- business's recent invites without reading its whole history.
CREATE INDEX team_invites_business_created_idx ON team_invites (business_id, created_at);
