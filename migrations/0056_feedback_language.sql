-- What customers write, in their language (issue 43, docs/decisions.md "Detecting the language" and
-- "Sentiment per language").

-- The language of a suggestion's content (ISO 639-1), detected when it is written (eld), or null when
-- the detector is not sure; and the language whose lexicon scored its sentiment, or null when none
-- did (then sentiment is `neutral` and sentiment_score 0: not scored, rather than judged neutral).
-- Rows written before keep null: their language was never detected and English scored them.
ALTER TABLE suggestions
  ADD COLUMN language text CONSTRAINT suggestions_language_check CHECK (language ~ '^[a-z]{2}$'),
  ADD COLUMN sentiment_lexicon text CONSTRAINT suggestions_sentiment_lexicon_check CHECK (sentiment_lexicon ~ '^[a-z]{2}$');

-- The lists filter by it (`lang=`) within a business.
CREATE INDEX suggestions_business_language_idx ON suggestions (business_id, language);
