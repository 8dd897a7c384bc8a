-- How many idempotency records each owner has stored, kept by triggers, so that a claim checks the
-- per-owner quota (OnboardingKitOptions.idempotencyMaxRecordsPerOwner) without counting the owner's
-- live records one by one. Stored records include those past their TTL and not yet purged, so the
-- sum is never below the live count: a claim whose owner is below the quota by the sum needs no
-- count; at or above it, the claim counts the live records as before. A stale sum can only be too
-- high (the exact count then decides), never too low: every change to idempotency_records updates
-- it in the same transaction.
--
-- An insert adds 1 to one of eight rows of its owner, picked at random, so concurrent claims of one
-- busy owner rarely wait on the same row; removals subtract from row 0 (which may go negative: only
-- the sum means something).
CREATE TABLE idempotency_owner_records (
  owner text NOT NULL,
  shard smallint NOT NULL,
  records bigint NOT NULL,
  PRIMARY KEY (owner, shard)
);

-- The functions run with the search_path of this migration (the kit's schema), whatever the
-- session's is.
CREATE FUNCTION idempotency_owner_records_inserted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  VALUES (NEW.owner, floor(random() * 8)::smallint, 1)
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + 1;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_deleted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- In owner order: two purges running at once take the rows of the owners they share in the same
  -- order, so neither waits for a row the other holds while holding one it wants (a deadlock).
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  SELECT owner, 0, -count(*) FROM removed GROUP BY owner ORDER BY owner
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + excluded.records;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_moved() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO idempotency_owner_records AS counted (owner, shard, records)
  SELECT owner, 0, change FROM (VALUES (OLD.owner, -1), (NEW.owner, 1)) AS moved(owner, change)
  ORDER BY owner
  ON CONFLICT (owner, shard) DO UPDATE SET records = counted.records + excluded.records;
  RETURN NULL;
END
$$;

CREATE FUNCTION idempotency_owner_records_truncated() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM idempotency_owner_records;
  RETURN NULL;
END
$$;

-- A claim's INSERT … ON CONFLICT DO UPDATE fires the insert trigger only for a row it inserted.
CREATE TRIGGER idempotency_owner_records_on_insert AFTER INSERT ON idempotency_records
  FOR EACH ROW EXECUTE FUNCTION idempotency_owner_records_inserted();
-- Releases and purges: one statement-level update per statement, whatever it deleted.
CREATE TRIGGER idempotency_owner_records_on_delete AFTER DELETE ON idempotency_records
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION idempotency_owner_records_deleted();
CREATE TRIGGER idempotency_owner_records_on_move AFTER UPDATE OF owner ON idempotency_records
  FOR EACH ROW WHEN (OLD.owner IS DISTINCT FROM NEW.owner)
  EXECUTE FUNCTION idempotency_owner_records_moved();
CREATE TRIGGER idempotency_owner_records_on_truncate AFTER TRUNCATE ON idempotency_records
  FOR EACH STATEMENT EXECUTE FUNCTION idempotency_owner_records_truncated();

-- The records stored before this migration (the triggers' lock keeps writers out until it commits).
INSERT INTO idempotency_owner_records (owner, shard, records)
SELECT owner, 0, count(*) FROM idempotency_records GROUP BY owner;
