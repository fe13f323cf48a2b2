-- The changelog (issue 42, docs/changelog.md): what the business shipped, written in Markdown, with
-- the suggestions it answers. `body_html` is the body as the server renders it (markdown-it with raw
-- HTML off and links to http, https and mailto only: src/shared/markdown.ts), written
-- with the body, so the page, the feed and the API read it as it is. A draft has no published_at;
-- only published entries are shown to keys, on the page and in the feed.
CREATE TABLE changelog_entries (
  id             uuid PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  title          text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body           text NOT NULL CHECK (length(body) <= 20000),
  body_html      text NOT NULL,
  suggestion_ids uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(suggestion_ids) <= 50),
  published_at   timestamptz(3),
  created_at     timestamptz(3) NOT NULL DEFAULT now(),
  updated_at     timestamptz(3) NOT NULL DEFAULT now()
);
-- The dashboard's list (every entry, newest first) and the public one (published, newest first).
CREATE INDEX changelog_entries_business_created_idx ON changelog_entries (business_id, created_at, id);
CREATE INDEX changelog_entries_business_published_idx ON changelog_entries (business_id, published_at, id)
  WHERE published_at IS NOT NULL;

-- Publishing an entry that names suggestions leaves a notice, sent by the follow notifier
-- (src/follows/follow.notifier.ts) like a status notice: one message per confirmed follower address
-- of the named suggestions, inside FOLLOWER_EMAILS_PER_HOUR.
CREATE TABLE changelog_notices (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  entry_id    uuid NOT NULL UNIQUE REFERENCES changelog_entries (id) ON DELETE CASCADE,
  due_at      timestamptz(3) NOT NULL DEFAULT now(),
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX changelog_notices_due_idx ON changelog_notices (due_at);

-- A changelog message logs every follow of its address it stands for (so a notice sent in parts
-- never mails an address twice, and a status notice it carried skips that follower), but only one
-- of them counts towards the hourly cap: one message, one count.
ALTER TABLE follow_mail_log
  ADD COLUMN counted boolean NOT NULL DEFAULT true;
