-- onboarding-kit: redaction (decisions §11) now replaces the fingerprint of every idempotency
-- record whose scope or answer names the client by '[redacted]' (core's REDACTED_FINGERPRINT): a
-- SHA-256 of a body that held names and dates confirms a guess of them. Records of clients redacted
-- before this release kept theirs until their TTL purge, and those whose answer did not name the
-- client (a request on its path) were not rewritten at all: they get what redaction gives now. A
-- host route's answer (kind 'response') becomes '[redacted]' under its status; a kit command's
-- answer stays as redaction left it (a value naming the client was rewritten then; a refusal names
-- ids and statuses only). The records' ids are read from the UUIDs in their scope and answer and
-- joined to the redacted clients: one pass over the records, which their TTL keeps few.
UPDATE idempotency_records AS record
SET fingerprint = '[redacted]',
  outcome = CASE WHEN record.outcome ->> 'kind' = 'response'
    THEN json_build_object('kind', 'response', 'status', record.outcome -> 'status', 'body', '[redacted]')
    ELSE record.outcome END
WHERE record.fingerprint <> '[redacted]'
  AND EXISTS (
    SELECT FROM regexp_matches(
        lower(record.scope || ' ' || coalesce(record.outcome::text, '')),
        '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'g') AS found (id)
      JOIN clients ON clients.id = found.id[1]::uuid
    WHERE clients.redacted_at IS NOT NULL);
