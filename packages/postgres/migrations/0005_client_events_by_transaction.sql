-- Client events are read in transaction order, without a lock: each event records the id of the
-- transaction that wrote it, and a reader returns only events of transactions older than its
-- snapshot's xmin (every one of them has finished), ordered by (transaction, position). A
-- transaction still running holds back only what comes after it; nothing is ever skipped.
ALTER TABLE client_events ADD COLUMN xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX client_events_by_manager_xid ON client_events (manager_id, xid, position);
DROP INDEX client_events_by_manager;
