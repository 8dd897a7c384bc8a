-- Who holds each idempotency record, so a caller's live records can be counted against its quota
-- (OnboardingKitOptions.idempotencyMaxRecordsPerOwner). Existing records belong to the principal
-- their scope starts with ("<principalKey> <METHOD> <route>").
ALTER TABLE idempotency_records ADD COLUMN owner text;
UPDATE idempotency_records SET owner = split_part(scope, ' ', 1);
ALTER TABLE idempotency_records ALTER COLUMN owner SET NOT NULL;
CREATE INDEX idempotency_records_by_owner ON idempotency_records (owner, created_at);
