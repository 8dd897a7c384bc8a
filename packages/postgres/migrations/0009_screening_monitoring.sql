-- onboarding-kit: ongoing screening (decisions §12).
-- `screened_names`: the names a client's last completed screening looked at, one row per payload
-- field, with the keys core derives from each name (`screeningNameKeys`). A new list version's
-- changed targets are matched against it by key, so a run reads the names that share a key with
-- the change, not every client: the GIN index answers `keys && $1`. Written with the screening it
-- indexes, deleted by redaction (and with the client's row).
CREATE TABLE screened_names (
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  field text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('PERSON', 'COMPANY')),
  -- The client's country where the payload gives one: evidence the provider weighs.
  country text,
  keys text[] NOT NULL,
  PRIMARY KEY (client_id, field)
);
CREATE INDEX screened_names_by_key ON screened_names USING gin (keys);

-- The list versions whose monitoring was enqueued: one row per version, so that only the first of
-- several processes handed the same version enqueues its jobs (the others find the row).
CREATE TABLE screening_list_versions (
  version text PRIMARY KEY,
  changed_targets integer NOT NULL CHECK (changed_targets >= 0),
  batches integer NOT NULL CHECK (batches >= 0),
  enqueued_at timestamptz NOT NULL DEFAULT now()
);

-- A hit found on a new list version is an audited change, written by `system`. The list keeps
-- every action of the other migrations (0008's `assign` and `release` too), whichever ran first.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'create', 'resubmit', 'approve', 'request-resubmission', 'terms-signed', 'delete', 'redact',
  'screening-resolution', 'screening-result', 'download-links-issued', 'assign', 'release'
));
