-- The customer's language (issue 43, docs/decisions.md "Languages").

-- The language a visitor with no preference of their own (no ?lang=, no cookie, no Accept-Language
-- this service has a catalogue for) reads the business's public page in. One of the catalogues'
-- names; the API validates it against them (src/shared/messages.ts).
ALTER TABLE businesses
  ADD COLUMN default_language text NOT NULL DEFAULT 'en'
    CONSTRAINT businesses_default_language_check CHECK (default_language ~ '^[a-z]{2}$');

-- The language the follower read the page in when following: their emails (the confirmation, the
-- notices, the changelog's) are written in it. Follows made before it are English, as they were.
ALTER TABLE suggestion_follows
  ADD COLUMN language text NOT NULL DEFAULT 'en'
    CONSTRAINT suggestion_follows_language_check CHECK (language ~ '^[a-z]{2}$');
