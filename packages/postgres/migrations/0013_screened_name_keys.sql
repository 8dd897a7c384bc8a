-- onboarding-kit: the index of screened names answers its keys from the GIN tree alone.
-- With `fastupdate` (the default), rows written since the last vacuum wait in the index's pending
-- list, which every lookup reads through whole: a monitoring run looks up each of a batch's
-- keys on its own (about a thousand), and with 175,000 names just written each lookup took 5 ms
-- instead of 0.01 ms (bench/postgres-screening-monitoring.ts). A name is written once a
-- screening, so writing it into the tree at once costs little. The entries already pending are
-- moved into the tree now.
ALTER INDEX screened_names_by_key SET (fastupdate = off);
SELECT gin_clean_pending_list('screened_names_by_key'::regclass);
