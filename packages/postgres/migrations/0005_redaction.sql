-- onboarding-kit: retention and erasure (decisions §11).
-- `redacted_at`: when the personal data of a deleted client was erased (NULL until then). The
-- retention job reads the deleted clients not yet redacted, oldest deletion first: a partial index
-- holds only those, so it stays small however many clients are live or already redacted.
ALTER TABLE clients ADD COLUMN redacted_at timestamptz;
CREATE INDEX clients_awaiting_redaction ON clients (deleted_at, id)
  WHERE status = 'DELETED' AND redacted_at IS NULL;
-- Redaction rewrites the events of one client; without it, a scan of the whole outbox.
CREATE INDEX client_events_by_client ON client_events (client_id);
-- Redaction writes an audit entry of its own.
ALTER TABLE audit_entries
  DROP CONSTRAINT audit_entries_action_check,
  ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
    'create', 'resubmit', 'approve', 'request-resubmission', 'terms-signed', 'delete', 'redact',
    'download-links-issued'
  ));
