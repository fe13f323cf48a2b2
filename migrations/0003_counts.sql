-- Exact totals that do not cost time proportional to rows (docs/counting.md).
--
-- Three counter tables, kept by statement-level triggers in the same transaction as every write to
-- suggestions and issues (the API, the seed command, bulk SQL, anything), so a snapshot that sees a
-- row also sees it counted:
--   suggestion_counts  rows per business x status x priority x sentiment, with the sum of their
--                      sentiment scores (for the average) in units of 1e-4, so the sum is exact
--   issue_counts       rows per business x status x priority x assignee
--   created_counts     rows per business x entity x UTC day of creation ("created in the last 7 days")
-- Each counter is split into shards (the writing backend's pid mod 8): concurrent transactions of one
-- business mostly update different rows instead of queueing on one. A shard's value means nothing
-- alone (a row counted on one shard and moved on another leaves -1 and +1); readers sum the shards.

-- No write may slip between the backfill below and the triggers taking over (reads go on).
LOCK TABLE suggestions, issues IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE suggestion_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  status      suggestion_status NOT NULL,
  priority    priority NOT NULL,
  sentiment   sentiment NOT NULL,
  shard       smallint NOT NULL,
  n           bigint NOT NULL,
  -- sum of round(sentiment_score * 10000): scores have 4 decimals, so integer sums never drift
  score_e4    bigint NOT NULL,
  PRIMARY KEY (business_id, status, priority, sentiment, shard)
);

CREATE TABLE issue_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  status      issue_status NOT NULL,
  priority    priority NOT NULL,
  -- null: unassigned, a counter like any assignee's
  assignee_id uuid,
  shard       smallint NOT NULL,
  n           bigint NOT NULL,
  UNIQUE NULLS NOT DISTINCT (business_id, status, priority, assignee_id, shard)
);

CREATE TABLE created_counts (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  entity      entity_type NOT NULL,
  -- the UTC day of created_at
  day         date NOT NULL,
  shard       smallint NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (business_id, entity, day, shard)
);

-- The counter shard of the current connection.
CREATE FUNCTION count_shard() RETURNS smallint
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT (pg_backend_pid() % 8)::smallint $$;

CREATE FUNCTION utc_day(at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (at AT TIME ZONE 'UTC')::date $$;

CREATE FUNCTION score_e4(score real) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT round(score::numeric * 10000)::bigint $$;

-- One changed row's contribution: +1 for a new row version, -1 for an old one.
CREATE TYPE suggestion_delta AS (
  business_id uuid,
  status      suggestion_status,
  priority    priority,
  sentiment   sentiment,
  day         date,
  n           bigint,
  score_e4    bigint
);

CREATE TYPE issue_delta AS (
  business_id uuid,
  status      issue_status,
  priority    priority,
  assignee_id uuid,
  day         date,
  n           bigint
);

-- A statement's deltas are netted per counter before anything is written: a bulk insert of a
-- million rows makes a few dozen upserts, and an update that moves no counter (a visibility change)
-- writes and locks nothing. Upserts go in key order, so two statements never take the same counter
-- rows in opposite orders and cannot deadlock on them.

CREATE FUNCTION apply_suggestion_deltas(deltas suggestion_delta[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO suggestion_counts AS c (business_id, status, priority, sentiment, shard, n, score_e4)
  SELECT business_id, status, priority, sentiment, count_shard(), sum(n), sum(score_e4)
  FROM unnest(deltas)
  GROUP BY business_id, status, priority, sentiment
  HAVING sum(n) <> 0 OR sum(score_e4) <> 0
  ORDER BY business_id, status, priority, sentiment
  ON CONFLICT (business_id, status, priority, sentiment, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n, score_e4 = c.score_e4 + EXCLUDED.score_e4;

  INSERT INTO created_counts AS c (business_id, entity, day, shard, n)
  SELECT business_id, 'suggestion', day, count_shard(), sum(n)
  FROM unnest(deltas)
  GROUP BY business_id, day
  HAVING sum(n) <> 0
  ORDER BY business_id, day
  ON CONFLICT (business_id, entity, day, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;
$$;

CREATE FUNCTION apply_issue_deltas(deltas issue_delta[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO issue_counts AS c (business_id, status, priority, assignee_id, shard, n)
  SELECT business_id, status, priority, assignee_id, count_shard(), sum(n)
  FROM unnest(deltas)
  GROUP BY business_id, status, priority, assignee_id
  HAVING sum(n) <> 0
  ORDER BY business_id, status, priority, assignee_id
  ON CONFLICT (business_id, status, priority, assignee_id, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;

  INSERT INTO created_counts AS c (business_id, entity, day, shard, n)
  SELECT business_id, 'issue', day, count_shard(), sum(n)
  FROM unnest(deltas)
  GROUP BY business_id, day
  HAVING sum(n) <> 0
  ORDER BY business_id, day
  ON CONFLICT (business_id, entity, day, shard)
  DO UPDATE SET n = c.n + EXCLUDED.n;
$$;

-- A transition table exists only for the operations that have it, hence one branch per operation.
-- On DELETE, rows of a business that is itself being deleted are skipped: its counters go by cascade.
CREATE FUNCTION count_suggestions() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  deltas suggestion_delta[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), 1, score_e4(sentiment_score))::suggestion_delta
      FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), 1, score_e4(sentiment_score))::suggestion_delta
      FROM new_rows
      UNION ALL
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), -1, -score_e4(sentiment_score))::suggestion_delta
      FROM old_rows);
  ELSE
    deltas := ARRAY(
      SELECT (business_id, status, priority, sentiment, utc_day(created_at), -1, -score_e4(sentiment_score))::suggestion_delta
      FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM businesses b WHERE b.id = o.business_id));
  END IF;
  PERFORM apply_suggestion_deltas(deltas);
  RETURN NULL;
END $$;

CREATE FUNCTION count_issues() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  deltas issue_delta[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    deltas := ARRAY(
      SELECT (business_id, status, priority, assignee_id, utc_day(created_at), 1)::issue_delta
      FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    deltas := ARRAY(
      SELECT (business_id, status, priority, assignee_id, utc_day(created_at), 1)::issue_delta
      FROM new_rows
      UNION ALL
      SELECT (business_id, status, priority, assignee_id, utc_day(created_at), -1)::issue_delta
      FROM old_rows);
  ELSE
    deltas := ARRAY(
      SELECT (business_id, status, priority, assignee_id, utc_day(created_at), -1)::issue_delta
      FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM businesses b WHERE b.id = o.business_id));
  END IF;
  PERFORM apply_issue_deltas(deltas);
  RETURN NULL;
END $$;

CREATE TRIGGER suggestions_count_insert AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestions();
CREATE TRIGGER suggestions_count_update AFTER UPDATE ON suggestions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestions();
CREATE TRIGGER suggestions_count_delete AFTER DELETE ON suggestions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_suggestions();

CREATE TRIGGER issues_count_insert AFTER INSERT ON issues
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_issues();
CREATE TRIGGER issues_count_update AFTER UPDATE ON issues
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_issues();
CREATE TRIGGER issues_count_delete AFTER DELETE ON issues
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_issues();

-- Rows written before this migration.
INSERT INTO suggestion_counts (business_id, status, priority, sentiment, shard, n, score_e4)
SELECT business_id, status, priority, sentiment, 0, count(*), sum(score_e4(sentiment_score))
FROM suggestions
GROUP BY business_id, status, priority, sentiment;

INSERT INTO issue_counts (business_id, status, priority, assignee_id, shard, n)
SELECT business_id, status, priority, assignee_id, 0, count(*)
FROM issues
GROUP BY business_id, status, priority, assignee_id;

INSERT INTO created_counts (business_id, entity, day, shard, n)
SELECT business_id, 'suggestion'::entity_type, utc_day(created_at), 0, count(*)
FROM suggestions
GROUP BY business_id, utc_day(created_at)
UNION ALL
SELECT business_id, 'issue'::entity_type, utc_day(created_at), 0, count(*)
FROM issues
GROUP BY business_id, utc_day(created_at);
