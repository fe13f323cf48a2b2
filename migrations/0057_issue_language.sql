-- What customers write, in their language, for issues too (issue 43 item 4, docs/decisions.md
-- "Detecting the language"): the language of an issue's title and description (ISO 639-1), detected
-- when it is created and again when its title or description is edited (eld), or null when the
-- detector is not sure. Rows written before keep null: their language was never detected.
ALTER TABLE issues
  ADD COLUMN language text CONSTRAINT issues_language_check CHECK (language ~ '^[a-z]{2}$');

-- The lists filter by it (`lang=`) within a business, as the suggestions' do.
CREATE INDEX issues_business_language_idx ON issues (business_id, language);

-- Analytics counts the suggestions no lexicon scored apart from neutral (they are written `neutral`, 0,
-- with no lexicon): counted on the rows through this partial index, which holds only those.
CREATE INDEX suggestions_unscored_idx ON suggestions (business_id)
  WHERE sentiment_lexicon IS NULL AND sentiment = 'neutral' AND merged_into IS NULL;
