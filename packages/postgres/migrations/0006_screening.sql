-- onboarding-kit: screening of a client's people and companies (decisions §12).
-- The screening's status, when it last ran and its hits with compliance's resolutions: read and
-- written whole, never queried inside (the screening jobs are pg-boss jobs naming the client), so
-- jsonb. NULL when the kit screens nobody, which is what every existing client is.

ALTER TABLE clients
  ADD COLUMN screening jsonb CHECK (jsonb_typeof(screening) = 'object');

-- Compliance's decision on a screening hit is an audited change: the trail takes its action. The
-- list keeps every action of the earlier migrations (`redact` included, which redaction writes).
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'create', 'resubmit', 'approve', 'request-resubmission', 'terms-signed', 'delete', 'redact',
  'screening-resolution', 'download-links-issued'
));
