-- A completed record keeps one opaque JSON outcome (core's RecordedOutcome): a kit command's outcome
-- in domain terms, or a host route's answer. Answers recorded before this migration were HTTP
-- responses: they become `response` outcomes and replay exactly as before.
ALTER TABLE idempotency_records ADD COLUMN outcome json;
UPDATE idempotency_records
SET outcome = json_build_object('kind', 'response', 'status', response_status, 'body', response_body)
WHERE state = 'COMPLETED';
ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_completed_has_response;
ALTER TABLE idempotency_records DROP COLUMN response_status, DROP COLUMN response_body;
ALTER TABLE idempotency_records ADD CONSTRAINT idempotency_records_completed_has_outcome
  CHECK ((state = 'COMPLETED') = (outcome IS NOT NULL AND completed_at IS NOT NULL));
