-- Similar suggestions (issues 41 and 42, docs/decisions.md "Finding the candidates"): the finder no
-- longer takes candidates in trigram distance order. On a business with a small vocabulary that
-- nearest-neighbour scan read nearly all of this index (3,300 to 3,600 pages, 160 to 700 ms at 100,000
-- suggestions) for every typed text, and on the labelled pairs every pair the finder offers shares a
-- subject word, which the GIN index of 0044 finds. No query reads this index now; every suggestion
-- insert and content edit still wrote it (630 to 1,200 bytes of WAL a create, issue 41's breakdown).
DROP INDEX IF EXISTS suggestions_content_trgm_idx;
