/**
 * The list fields of the spec (4.2 and 4.3), in its order, written out from the spec rather than taken
 * from the code: tests compare what the API sends against these, so a drift in the code shows. Issue 33
 * adds `tags` to both (docs/tags.md); issue 43 `language` to both, and `sentiment_lexicon` to suggestions.
 */
export const SPEC_SUGGESTION_LIST_FIELDS = [
  'id',
  'content',
  'status',
  'priority',
  'sentiment',
  'sentiment_score',
  'language',
  'sentiment_lexicon',
  'customer_name',
  'customer_email',
  'upvote_count',
  'tags',
  'created_at',
  'updated_at',
];

export const SPEC_ISSUE_LIST_FIELDS = [
  'id',
  'title',
  'description',
  'status',
  'priority',
  'language',
  'assignee_id',
  'customer_name',
  'customer_email',
  'tags',
  'resolved_at',
  'created_at',
  'updated_at',
];

/** A comment as the API shows it (spec 2.3), and where a merge moved it from (issue 33: `merged_from`). */
export const COMMENT_FIELDS = ['id', 'entity_type', 'entity_id', 'content', 'author_id', 'created_at', 'merged_from'];
